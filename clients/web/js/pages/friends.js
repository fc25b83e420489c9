// Friends: the people the user shares trips and subscriptions with. The friends (by name and
// email: names are not unique), the requests received (accept or reject) and sent, a request by
// email, and contacts saved by email who have not registered yet (a trip's invite waits for them).

import { api, segment } from "../api.js";
import { h, replace, field, form, failure, announce, date } from "../dom.js";
import { t } from "../i18n.js";

const fullName = (user) => `${user.firstName || ""} ${user.lastName || ""}`.trim() || user.email;
const named = (user) => `${fullName(user)} (${user.email})`;

export async function show(main) {
  const section = h("section", { id: "friends" });
  main.append(section);

  async function load() {
    const [friends, requests] = await Promise.all([api("GET", "/v1/friends"), api("GET", "/v1/friend-requests")]);
    const act = (label, method, path, body, done) => h("button", { type: "button", class: "secondary", onclick: async (event) => {
      event.target.disabled = true;
      try {
        await api(method, path, body);
        announce(done);
        await load();
      } catch (error) {
        event.target.disabled = false;
        section.append(failure(error));
      }
    } }, label);
    const incoming = requests.incoming || [];
    const outgoing = requests.outgoing || [];
    replace(section,
      h("h2", {}, t("friends.yours")),
      (friends.friends || []).length
        ? h("ul", { id: "friend-list" }, friends.friends.map((friend) => h("li", {}, named(friend), " ",
          act(t("friends.remove"), "DELETE", `/v1/friends/${segment(friend.userId)}`, undefined, t("friends.removed", { name: fullName(friend) })))))
        : h("p", { class: "empty" }, t("friends.none")),
      h("h2", {}, t("friends.requestsIn")),
      incoming.length
        ? h("ul", { id: "requests-in" }, incoming.map((request) => h("li", {}, named(request.from), ` · ${date(request.createdAt)} `,
          act(t("friends.accept"), "POST", `/v1/friend-requests/${segment(request.requestId)}:respond`, { accept: true }, t("friends.accepted", { name: fullName(request.from) })),
          " ",
          act(t("friends.reject"), "POST", `/v1/friend-requests/${segment(request.requestId)}:respond`, { accept: false }, t("friends.rejected", { name: fullName(request.from) })))))
        : h("p", { class: "empty" }, t("friends.noRequests")),
      outgoing.length ? [h("h2", {}, t("friends.requestsOut")), h("ul", { id: "requests-out" }, outgoing.map((request) =>
        h("li", {}, named(request.to), ` · ${t("friends.waiting")}`)))] : null,
      form(t("friends.add"), [
        field(t("friends.email"), { name: "email", type: "email", required: true }, t("friends.addHint")),
      ], t("friends.send"), async (values, element) => {
        await api("POST", "/v1/friend-requests", { email: values.email });
        announce(t("friends.sent", { email: values.email }));
        element.reset();
        await load();
      }, { id: "friend-request-form", class: "inline" }),
      h("h2", {}, t("friends.contacts")),
      h("p", { class: "hint" }, t("friends.contactsHint")),
      (friends.pendingContacts || []).length
        ? h("ul", { id: "contact-list" }, friends.pendingContacts.map((contact) => h("li", {}, `${contact.name} (${contact.email}) `,
          act(t("friends.remove"), "DELETE", `/v1/contacts/${segment(contact.contactId)}`, undefined, t("friends.removed", { name: contact.name })))))
        : null,
      form(t("friends.addContact"), [
        field(t("itinerary.contactName"), { name: "name", required: true }),
        field(t("itinerary.contactEmail"), { name: "email", type: "email", required: true }),
      ], t("friends.save"), async (values, element) => {
        await api("POST", "/v1/contacts", { name: values.name, email: values.email, idempotencyKey: crypto.randomUUID() });
        announce(t("friends.contactSaved", { name: values.name }));
        element.reset();
        await load();
      }, { id: "contact-form", class: "inline" }));
  }
  try { await load(); } catch (error) { section.append(failure(error)); }
}
