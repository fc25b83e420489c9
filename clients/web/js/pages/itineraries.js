// Shared trips: the user's itineraries, one with its events, members (with their share of the
// cost) and invites; inviting a friend or a contact by email; answering invites.

import { api, segment } from "../api.js";
import { h, replace, field, form, failure, announce, dateTime, money, enumText, fromZonedInput } from "../dom.js";

const euros = (text) => ({ amountMinor: String(Math.round(Number(text || 0) * 100)), currency: "EUR" });

export async function show(main) {
  const invites = h("section", { id: "itinerary-invites" });
  const list = h("section", { id: "itinerary-list" });
  main.append(invites, list, form("New itinerary", [
    field("Name", { name: "name", required: true, placeholder: "Lake Como" }),
    field("Destination", { name: "destination", required: true, placeholder: "Bellagio" }),
    field("From", { name: "startDate", type: "date", required: true }),
    field("To", { name: "endDate", type: "date", required: true }),
    field("Estimated cost (€)", { name: "cost", type: "number", step: "0.01", min: "0" }),
  ], "Create", async (values, element) => {
    const created = await api("POST", "/v1/itineraries", {
      name: values.name, destination: values.destination, startDate: values.startDate, endDate: values.endDate, estimatedCost: euros(values.cost),
    });
    announce(`${values.name} created`);
    element.reset();
    location.hash = `#/itineraries/${encodeURIComponent(created.itinerary.itineraryId)}`;
  }, { id: "itinerary-form", class: "inline" }));

  try {
    const pending = (await api("GET", "/v1/me/itinerary-invites")).invites || [];
    replace(invites, pending.length ? [h("h2", {}, "Invitations"), h("ul", {}, pending.map((entry) => h("li", {},
      `${entry.itinerary.name} (${entry.itinerary.destination}, ${entry.itinerary.startDate} – ${entry.itinerary.endDate}) `,
      ...[true, false].map((accept) => h("button", { type: "button", class: accept ? "" : "secondary", onclick: async () => {
        await api("POST", `/v1/me/itinerary-invites/${segment(entry.invite.inviteId)}:respond`, { accept });
        announce(accept ? "Invitation accepted" : "Invitation declined");
        main.replaceChildren(h("h1", {}, "Itineraries"));
        await show(main);
      } }, accept ? "Accept" : "Decline")))))] : null);
    const itineraries = (await api("GET", "/v1/itineraries")).itineraries || [];
    replace(list, h("h2", {}, "Your itineraries"), itineraries.length
      ? h("ul", { class: "cards", id: "itineraries" }, itineraries.map((itinerary) => h("li", { class: "card" },
        h("h3", {}, h("a", { href: `#/itineraries/${encodeURIComponent(itinerary.itineraryId)}` }, itinerary.name)),
        h("p", {}, `${itinerary.destination}, ${itinerary.startDate} – ${itinerary.endDate}`, itinerary.estimatedCost ? ` · ${money(itinerary.estimatedCost)}` : ""))))
      : h("p", { class: "empty" }, "No itineraries yet."));
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
    main.replaceChildren(h("h1", {}, "Itinerary"));
    await showOne(main, { params });
  };
  main.querySelector("h1").textContent = itinerary.name;
  main.append(
    h("p", {}, `${itinerary.destination}, ${itinerary.startDate} – ${itinerary.endDate}`, itinerary.estimatedCost ? ` · estimated ${money(itinerary.estimatedCost)}` : ""),
    h("h2", {}, "Events"),
    (itinerary.events || []).length ? h("ol", { id: "itinerary-events" }, itinerary.events.map((event) => h("li", {},
      h("strong", {}, event.title), ` — ${dateTime(event.startsAt)}`, event.place ? `, ${event.place}` : "", event.cost ? ` (${money(event.cost)})` : "",
      event.notes ? h("p", {}, event.notes) : null))) : h("p", { class: "empty" }, "No events yet."),
    form("Add an event", [
      field("What", { name: "title", required: true, placeholder: "Ferry to Bellagio" }),
      field("Where", { name: "place" }),
      field("Starts", { name: "startsAt", type: "datetime-local", required: true }),
      field("Cost (€)", { name: "cost", type: "number", step: "0.01", min: "0" }),
    ], "Add", async (values) => {
      await api("POST", `${path}/events`, { event: { title: values.title, place: values.place, startsAt: fromZonedInput(values.startsAt).toISOString(), cost: euros(values.cost) } });
      announce(`${values.title} added`);
      await reload();
    }, { id: "event-form", class: "inline" }),
    h("h2", {}, "Members"),
    h("ul", { id: "itinerary-members" }, (itinerary.members || []).map((member) => h("li", {},
      member.displayName, member.organiser ? " (organiser)" : "", member.costShare ? ` — share ${money(member.costShare)}` : ""))),
    (itinerary.invites || []).length ? h("section", {}, h("h2", {}, "Invites"), h("ul", { id: "itinerary-invites-sent" }, itinerary.invites.map((invite) => h("li", {},
      invite.inviteeEmail || invite.inviteeUserId, ` — ${enumText(invite.status, "INVITE_STATUS_")}`)))) : null,
    inviteForm(path, await api("GET", "/v1/friends").catch(() => ({})), reload));
}

/** Invite a friend, a saved contact, or someone new by email (saved as a contact first: an
 * itinerary is shared only with friends and contacts). */
function inviteForm(path, friends, reload) {
  const choices = [["", "Someone new (below)"],
    ...(friends.friends || []).map((friend) => [`user:${friend.userId}`, `${friend.firstName} ${friend.lastName || ""}`.trim()]),
    ...(friends.pendingContacts || []).map((contact) => [`email:${contact.email}`, `${contact.name} (${contact.email}, not registered yet)`])];
  return form("Invite", [
    field("Friend or contact", { name: "who", options: choices }),
    field("New contact's name", { name: "name", placeholder: "Kay" }),
    field("New contact's email", { name: "email", type: "email" }),
  ], "Invite", async (values) => {
    let body;
    if (values.who.startsWith("user:")) body = { userId: values.who.slice(5) };
    else if (values.who.startsWith("email:")) body = { email: values.who.slice(6) };
    else {
      await api("POST", "/v1/contacts", { name: values.name || values.email, email: values.email });
      body = { email: values.email };
    }
    await api("POST", `${path}/invites`, body);
    announce("Invited");
    await reload();
  }, { id: "invite-form", class: "inline" });
}
