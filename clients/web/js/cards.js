// A payment card typed by the person: its fields, and adding it to their account (identity
// keeps the provider's token, never the number). The buy page and the profile both use them.

import { api } from "./api.js";
import { field } from "./dom.js";
import { t } from "./i18n.js";

/** The card's four fields, named as AddPaymentMethod's request (its field errors find them). */
export function cardFields({ required = true } = {}) {
  return [
    field(t("card.number"), { name: "cardNumber", inputmode: "numeric", autocomplete: "cc-number", required }),
    field(t("card.month"), { name: "expiryMonth", type: "number", min: 1, max: 12, autocomplete: "cc-exp-month", required }),
    field(t("card.year"), { name: "expiryYear", type: "number", min: 2024, max: 2100, autocomplete: "cc-exp-year", required }),
    field(t("card.code"), { name: "securityCode", inputmode: "numeric", autocomplete: "cc-csc", required }),
  ];
}

/** Adds the card in a form's `values`; answers the new card. */
export async function addCard(values) {
  const answer = await api("POST", "/v1/payment-methods", {
    cardNumber: (values.cardNumber || "").replace(/\s+/g, ""), expiryMonth: Number(values.expiryMonth),
    expiryYear: Number(values.expiryYear), securityCode: values.securityCode, idempotencyKey: crypto.randomUUID(),
  });
  return answer.paymentMethod;
}
