// Shared trips: the user's itineraries, one with its events, members (with their share of the
// cost) and invites; inviting a friend or a contact by email; answering invites.

import { api, segment } from "../api.js";
import { h, replace, field, form, failure, announce, dateTime, money, enumText, fromZonedInput } from "../dom.js";
import { t, calendarDate } from "../i18n.js";

/** "12 mag 2027 – 14 mag 2027" */
const dates = (itinerary) => `${calendarDate(itinerary.startDate)} – ${calendarDate(itinerary.endDate)}`;

const euros = (text) => ({ amountMinor: String(Math.round(Number(text || 0) * 100)), currency: "EUR" });

export async function show(main) {
  const invites = h("section", { id: "itinerary-invites" });
  const list = h("section", { id: "itinerary-list" });
  main.append(invites, list, form(t("itinerary.new"), [
    field(t("itinerary.name"), { name: "name", required: true, placeholder: t("itinerary.nameExample") }),
    field(t("itinerary.destination"), { name: "destination", required: true, placeholder: "Bellagio" }),
    field(t("itinerary.fromDate"), { name: "startDate", type: "date", required: true }),
    field(t("itinerary.toDate"), { name: "endDate", type: "date", required: true }),
    field(t("itinerary.estimatedCost"), { name: "cost", type: "number", step: "0.01", min: "0" }),
  ], t("itinerary.create"), async (values, element) => {
    const created = await api("POST", "/v1/itineraries", {
      name: values.name, destination: values.destination, startDate: values.startDate, endDate: values.endDate, estimatedCost: euros(values.cost),
    });
    announce(t("itinerary.created", { name: values.name }));
    element.reset();
    location.hash = `#/itineraries/${encodeURIComponent(created.itinerary.itineraryId)}`;
  }, { id: "itinerary-form", class: "inline" }));

  try {
    const pending = (await api("GET", "/v1/me/itinerary-invites")).invites || [];
    replace(invites, pending.length ? [h("h2", {}, t("itinerary.invitations")), h("ul", {}, pending.map((entry) => h("li", {},
      `${entry.itinerary.name} (${entry.itinerary.destination}, ${dates(entry.itinerary)}) `,
      ...[true, false].map((accept) => h("button", { type: "button", class: accept ? "" : "secondary", onclick: async () => {
        await api("POST", `/v1/me/itinerary-invites/${segment(entry.invite.inviteId)}:respond`, { accept });
        announce(accept ? t("itinerary.accepted") : t("itinerary.declined"));
        main.replaceChildren(h("h1", {}, t("page.itineraries")));
        await show(main);
      } }, accept ? t("itinerary.accept") : t("itinerary.decline"))))))] : null);
    const itineraries = (await api("GET", "/v1/itineraries")).itineraries || [];
    replace(list, h("h2", {}, t("itinerary.yours")), itineraries.length
      ? h("ul", { class: "cards", id: "itineraries" }, itineraries.map((itinerary) => h("li", { class: "card" },
        h("h3", {}, h("a", { href: `#/itineraries/${encodeURIComponent(itinerary.itineraryId)}` }, itinerary.name)),
        h("p", {}, `${itinerary.destination}, ${dates(itinerary)}`, itinerary.estimatedCost ? ` · ${money(itinerary.estimatedCost)}` : ""))))
      : h("p", { class: "empty" }, t("itinerary.none")));
  } catch (error) {
    list.append(failure(error));
  }
}

export async function showOne(main, { params }) {
  const path = `/v1/itineraries/${segment(params.id)}`;
  let itinerary;
  try {
    itinerary = (await api("GET", path)).itinerary;
  } catch (error) {
    return main.append(failure(error));
  }
  const reload = async () => {
    main.replaceChildren(h("h1", {}, t("page.itinerary")));
    await showOne(main, { params });
  };
  main.querySelector("h1").textContent = itinerary.name;
  main.append(
    h("p", {}, `${itinerary.destination}, ${dates(itinerary)}`, itinerary.estimatedCost ? ` · ${t("itinerary.estimated", { cost: money(itinerary.estimatedCost) })}` : ""),
    h("h2", {}, t("itinerary.events")),
    (itinerary.events || []).length ? h("ol", { id: "itinerary-events" }, itinerary.events.map((event) => h("li", {},
      h("strong", {}, event.title), ` — ${dateTime(event.startsAt)}`, event.place ? `, ${event.place}` : "", event.cost ? ` (${money(event.cost)})` : "",
      event.notes ? h("p", {}, event.notes) : null))) : h("p", { class: "empty" }, t("itinerary.noEvents")),
    form(t("itinerary.addEvent"), [
      field(t("itinerary.what"), { name: "title", required: true, placeholder: t("itinerary.whatExample") }),
      field(t("itinerary.where"), { name: "place" }),
      field(t("itinerary.starts"), { name: "startsAt", type: "datetime-local", required: true }),
      field(t("itinerary.cost"), { name: "cost", type: "number", step: "0.01", min: "0" }),
    ], t("subs.addButton"), async (values) => {
      await api("POST", `${path}/events`, { event: { title: values.title, place: values.place, startsAt: fromZonedInput(values.startsAt).toISOString(), cost: euros(values.cost) } });
      announce(t("subs.added", { name: values.title }));
      await reload();
    }, { id: "event-form", class: "inline" }),
    h("h2", {}, t("itinerary.members")),
    h("ul", { id: "itinerary-members" }, (itinerary.members || []).map((member) => h("li", {},
      member.displayName, member.organiser ? ` (${t("itinerary.organiser")})` : "", member.costShare ? ` — ${t("itinerary.share", { share: money(member.costShare) })}` : ""))),
    (itinerary.invites || []).length ? h("section", {}, h("h2", {}, t("itinerary.invites")), h("ul", { id: "itinerary-invites-sent" }, itinerary.invites.map((invite) => h("li", {},
      invite.inviteeEmail || invite.inviteeUserId, ` — ${enumText(invite.status)}`)))) : null,
    inviteForm(path, await api("GET", "/v1/friends").catch(() => ({})), reload));
}

/** Invite a friend, a saved contact, or someone new by email (saved as a contact first: an
 * itinerary is shared only with friends and contacts). */
function inviteForm(path, friends, reload) {
  const choices = [["", t("itinerary.someoneNew")],
    ...(friends.friends || []).map((friend) => [`user:${friend.userId}`, `${friend.firstName} ${friend.lastName || ""}`.trim()]),
    ...(friends.pendingContacts || []).map((contact) => [`email:${contact.email}`, t("itinerary.contact", { name: contact.name, email: contact.email })])];
  return form(t("itinerary.invite"), [
    field(t("itinerary.friendOrContact"), { name: "who", options: choices }),
    field(t("itinerary.contactName"), { name: "name", placeholder: "Kay" }),
    field(t("itinerary.contactEmail"), { name: "email", type: "email" }),
  ], t("itinerary.invite"), async (values) => {
    let body;
    if (values.who.startsWith("user:")) body = { userId: values.who.slice(5) };
    else if (values.who.startsWith("email:")) body = { email: values.who.slice(6) };
    else {
      await api("POST", "/v1/contacts", { name: values.name || values.email, email: values.email });
      body = { email: values.email };
    }
    await api("POST", `${path}/invites`, body);
    announce(t("itinerary.invited"));
    await reload();
  }, { id: "invite-form", class: "inline" });
}
