// The wallet: valid tickets with their validation code as a QR code and each train's live
// state, buying from a quote (a card on file pays; the purchase carries an idempotency key so
// a retry never charges twice), and the purchase history.

import { api } from "../api.js";
import { h, replace, field, form, failure, announce, money, dateTime, enumText, today } from "../dom.js";
import { qrCanvas } from "../qr.js";
import { t } from "../i18n.js";
import { qrcode } from "../libraries.js";

function ticketCard(ticket) {
  const journey = ticket.outbound;
  const live = journey && journey.live;
  const usable = ticket.status === "TICKET_STATUS_VALID";
  return h("li", { class: "card ticket", dataset: { ticket: ticket.ticketId } },
    h("h3", {}, ticket.description),
    h("p", {}, h("span", { class: `status ${usable ? "on-time" : "cancelled"}` }, enumText(ticket.status)),
      " · ", money(ticket.price),
      ticket.ridesTotal ? ` · ${t("wallet.ridesLeft", { count: ticket.ridesTotal - (ticket.ridesUsed || 0), total: ticket.ridesTotal })}` : "",
      ticket.validUntil ? ` · ${t("wallet.validUntil", { time: dateTime(ticket.validUntil) })}` : ""),
    journey ? h("p", {}, `${journey.fromStationName} → ${journey.toStationName}, ${t("wallet.train", { train: journey.trainNumber })}, `,
      dateTime(journey.scheduledDeparture),
      live ? h("span", { class: "live" },
        live.cancelled ? ` · ${t("run.cancelled")}` : "",
        live.delayMinutes > 0 ? ` · ${t("run.late", { count: live.delayMinutes })}` : "",
        live.platform ? ` · ${t(live.platformChanged ? "wallet.platformChanged" : "wallet.platform", { platform: live.platform })}` : "") : null) : null,
    usable ? h("figure", {}, qrCanvas(ticket.validationCode, t("wallet.codeOf", { ticket: ticket.description })),
      h("figcaption", {}, t("wallet.showCode"))) : null);
}

export async function show(main, { query }) {
  await qrcode();
  const tickets = h("ol", { id: "tickets", class: "cards" });
  const buying = h("section", { id: "buy", "aria-labelledby": "buy-heading" });
  const historyList = h("ol", { id: "purchases", class: "purchases" });
  main.append(h("h2", {}, t("wallet.tickets")), tickets, buying, h("h2", {}, t("wallet.history")), historyList);

  async function loadTickets() {
    const wallet = await api("GET", "/v1/me/wallet");
    const list = wallet.tickets || [];
    replace(tickets, list.length ? list.map(ticketCard) : h("li", { class: "empty" }, t("wallet.noTickets")));
  }
  async function loadHistory() {
    const answer = await api("GET", "/v1/me/purchases?page_size=20");
    replace(historyList, (answer.purchases || []).map((purchase) => h("li", {},
      dateTime(purchase.purchasedAt), ` — ${t("wallet.paidWith", { total: money(purchase.total), last4: purchase.cardLast4 })}: `,
      purchase.tickets.map((ticket) => ticket.description).join("; "),
      purchase.refunded && Number(purchase.refunded.amountMinor) > 0 ? ` (${t("wallet.refunded", { amount: money(purchase.refunded) })})` : "")));
  }

  async function drawBuying() {
    const [cards, fares] = await Promise.all([api("GET", "/v1/payment-methods"), api("GET", "/v1/fares")]);
    const methods = cards.paymentMethods || [];
    const quoteBox = h("div", { id: "quote", "aria-live": "polite" });
    const zones = [...new Set((fares.zoneFares || []).map((fare) => fare.zones))];
    const carnets = fares.carnets || [];
    const products = [
      ["zone", t("buy.zone")], ["carnet", t("buy.carnet")], ["monthly", t("buy.monthly")], ["yearly", t("buy.yearly")],
    ];
    if (query.trip) products.unshift(["station", t("buy.station", { train: query.trip, from: query.from, to: query.to })]);
    replace(buying, h("h2", { id: "buy-heading" }, t("buy.title")),
      methods.length ? null : cardForm(drawBuying),
      form(t("buy.quote"), [
        field(t("buy.ticket"), { name: "product", options: products, value: query.trip ? "station" : "zone" }),
        field(t("buy.zones"), { name: "zones", options: zones.map((zone) => [zone, zone]), value: "Mi1-Mi3" }, t("buy.zonesHint")),
        field(t("buy.carnet"), { name: "carnet", options: carnets.map((carnet) => [`${carnet.zones}|${carnet.rides}`, t("buy.carnetOption", { count: carnet.rides, zones: carnet.zones, price: money(carnet.price) })]) }),
        field(t("buy.passengers"), { name: "passengers", type: "number", min: 1, max: 10, value: "1" }),
      ], t("buy.getPrice"), async (values) => {
        const body = { passengers: Number(values.passengers) || 1 };
        if (values.product === "station") {
          body.station = { run: { tripId: query.trip, serviceDate: query.date || today() }, fromStationId: query.from, toStationId: query.to };
        } else if (values.product === "zone") {
          body.zone = { zones: values.zones };
        } else if (values.product === "carnet") {
          const [zonesOfCarnet, rides] = (values.carnet || "|").split("|");
          body.carnet = { zones: zonesOfCarnet, rides: Number(rides) };
        } else {
          body.pass = { period: values.product === "monthly" ? "PASS_PERIOD_MONTHLY" : "PASS_PERIOD_YEARLY", zones: values.zones };
        }
        const quote = (await api("POST", "/v1/tickets:quote", body)).quote;
        showQuote(quoteBox, quote, methods);
      }, { id: "quote-form", class: "inline" }),
      quoteBox);
  }

  function showQuote(box, quote, methods) {
    // One key per quote: pressing Pay again after a failure retries the same purchase.
    const idempotencyKey = crypto.randomUUID();
    const card = methods.find((method) => method.isDefault) || methods[0];
    const payForm = form(t("buy.pay"), [], card ? t("buy.payWith", { total: money(quote.total), last4: card.last4 }) : t("buy.addCardFirst"), async () => {
      const purchase = (await api("POST", "/v1/tickets:purchase", { quoteId: quote.quoteId, idempotencyKey })).purchase;
      announce(t("buy.bought", { tickets: purchase.tickets.map((ticket) => ticket.description).join("; ") }));
      replace(box, h("p", { role: "status", class: "bought" }, t("buy.paid", { total: money(purchase.total) })));
      await Promise.all([loadTickets(), loadHistory()]);
    }, { id: "pay-form" });
    replace(box,
      h("table", { class: "quote" }, h("tbody", {}, (quote.lines || []).map((line) => h("tr", {},
        h("td", {}, line.description), h("td", {}, `${line.quantity} × ${money(line.unitPrice)}`), h("td", {}, money(line.amount))))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: 2 }, t("buy.total")), h("td", {}, money(quote.total))))),
      h("p", { class: "hint" }, t("buy.heldUntil", { time: dateTime(quote.expiresAt) })),
      payForm);
  }

  function cardForm(then) {
    return form(t("card.title"), [
      field(t("card.number"), { name: "cardNumber", inputmode: "numeric", autocomplete: "cc-number", required: true }),
      field(t("card.month"), { name: "expiryMonth", type: "number", min: 1, max: 12, autocomplete: "cc-exp-month", required: true }),
      field(t("card.year"), { name: "expiryYear", type: "number", min: 2024, max: 2100, autocomplete: "cc-exp-year", required: true }),
      field(t("card.code"), { name: "securityCode", inputmode: "numeric", autocomplete: "cc-csc", required: true }),
    ], t("card.submit"), async (values) => {
      await api("POST", "/v1/payment-methods", {
        cardNumber: values.cardNumber.replace(/\s+/g, ""), expiryMonth: Number(values.expiryMonth),
        expiryYear: Number(values.expiryYear), securityCode: values.securityCode,
      });
      announce(t("card.added"));
      await then();
    }, { id: "card-form", class: "inline" });
  }

  for (const [load, where] of [[loadTickets, tickets], [drawBuying, buying], [loadHistory, historyList]]) {
    try { await load(); } catch (error) { where.append(failure(error)); }
  }
}
