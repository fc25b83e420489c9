// The emergency page, reached from the button on every page: an alert with the device's
// position (asked at that moment; without one, the alert says the position is unknown), to
// the person's emergency contacts, 112, or both (signed out: to 112); each message can be
// opened in the phone's SMS or WhatsApp app. Signed in, the contacts are managed here too.

import { api, publicApi, ApiError } from "../api.js";
import { session } from "../session.js";
import { h, replace, field, form, failure, announce, enumText } from "../dom.js";
import { t } from "../i18n.js";

const channels = [["CONTACT_CHANNEL_SMS", "SMS"], ["CONTACT_CHANNEL_WHATSAPP", "WhatsApp"]];

/** The device's position now, or null when it cannot or will not tell (within 10 s). */
function currentPosition() {
  if (!("geolocation" in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: 10000, maximumAge: 30000 });
  });
}

export async function show(main) {
  const signedIn = Boolean(session.user) && !session.user.offline;
  const results = h("section", { id: "emergency-sent", "aria-live": "assertive" });
  const recipients = signedIn
    ? [field(t("emergency.to"), { name: "recipients", value: "EMERGENCY_RECIPIENTS_UNSPECIFIED", options: [
      ["EMERGENCY_RECIPIENTS_UNSPECIFIED", t("emergency.toDefault")],
      ["EMERGENCY_RECIPIENTS_CONTACTS", t("emergency.toContacts")],
      ["EMERGENCY_RECIPIENTS_EMERGENCY_NUMBER", t("emergency.to112")],
      ["EMERGENCY_RECIPIENTS_BOTH", t("emergency.toBoth")],
    ] })]
    : [h("p", {}, t("emergency.signedOut"))];
  const alertForm = form(t("emergency.send"), [
    ...recipients,
    field(t("emergency.note"), { name: "note", maxlength: 500, placeholder: t("emergency.notePlaceholder") }),
  ], t("emergency.sendButton"), async (values) => {
    announce(t("emergency.locating"));
    const position = await currentPosition();
    const body = { ...(position || {}), note: values.note, recipients: values.recipients || undefined };
    let answer;
    try {
      answer = signedIn ? await api("POST", "/v1/emergency-alerts", body) : await publicApi("POST", "/v1/emergency-alerts", body);
    } catch (error) {
      // A session that no longer works must not stop an alert: it goes out signed out, to 112.
      if (!(error instanceof ApiError) || error.code !== "UNAUTHENTICATED") throw error;
      answer = await publicApi("POST", "/v1/emergency-alerts", { ...body, recipients: undefined });
    }
    const messages = answer.messages || [];
    replace(results,
      h("h2", {}, t("emergency.sent", { count: messages.length })),
      h("p", { class: position ? "" : "status delayed" }, position ? t("emergency.withPosition") : t("emergency.withoutPosition")),
      h("ul", { class: "cards" }, messages.map((message) => h("li", { class: "card" },
        h("strong", {}, `${message.recipientName} ${message.recipientPhone}`), " · ", enumText(message.channel),
        h("p", {}, message.text),
        h("a", { class: "button", href: message.deepLink }, t("emergency.open", { app: message.channel === "CONTACT_CHANNEL_WHATSAPP" ? "WhatsApp" : "SMS" }))))));
    announce(t("emergency.sent", { count: messages.length }));
  }, { id: "emergency-form", class: "emergency" });
  main.append(h("p", {}, t("emergency.intro")), alertForm, results);
  if (signedIn) main.append(await contacts().catch((error) => failure(error)));
}

/** The signed-in person's emergency contacts: each can be changed or removed; new ones added. */
async function contacts() {
  const section = h("section", { id: "emergency-contacts" });
  const languageOptions = [["", t("emergency.languageMine")], ["it", "Italiano"], ["en", "English"]];
  async function draw() {
    const list = (await api("GET", "/v1/emergency-contacts")).contacts || [];
    replace(section,
      h("h2", {}, t("emergency.contacts")),
      list.length ? h("ul", { class: "contacts" }, list.map((contact) => h("li", { dataset: { contact: contact.contactId } },
        form(t("emergency.editLabel", { name: contact.name }), [
          field(t("emergency.name"), { name: "name", value: contact.name, required: true }),
          field(t("emergency.phone"), { name: "phone", value: contact.phone, type: "tel", required: true }),
          field(t("emergency.channel"), { name: "channel", value: contact.channel, options: channels }),
          field(t("emergency.language"), { name: "language", value: contact.language || "", options: languageOptions }),
        ], t("emergency.save"), async (values) => {
          await api("PATCH", `/v1/emergency-contacts/${encodeURIComponent(contact.contactId)}`, values);
          announce(t("emergency.saved", { name: values.name }));
          await draw();
        }, { class: "inline contact" }),
        h("button", { type: "button", class: "secondary remove-contact", "aria-label": t("emergency.removeLabel", { name: contact.name }),
          onclick: async () => {
            await api("DELETE", `/v1/emergency-contacts/${encodeURIComponent(contact.contactId)}`);
            announce(t("emergency.removed", { name: contact.name }));
            await draw();
          } }, t("emergency.remove"))))) : h("p", {}, t("emergency.noContacts")),
      form(t("emergency.add"), [
        field(t("emergency.name"), { name: "name", required: true }),
        field(t("emergency.phone"), { name: "phone", type: "tel", required: true, placeholder: "+393331234567" }),
        field(t("emergency.channel"), { name: "channel", options: channels, value: "CONTACT_CHANNEL_SMS" }),
        field(t("emergency.language"), { name: "language", options: languageOptions, value: "" }),
      ], t("emergency.addButton"), async (values) => {
        await api("POST", "/v1/emergency-contacts", { ...values, idempotencyKey: crypto.randomUUID() });
        announce(t("emergency.added", { name: values.name }));
        await draw();
      }, { id: "add-contact-form" }));
  }
  await draw();
  return section;
}
