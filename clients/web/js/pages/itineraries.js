// Shared trips: the user's itineraries, one with its events, members (with their share of the
// cost) and invites; inviting a friend or a contact by email; answering invites.

import { api, segment } from "../api.js";
import { h, replace, field, form, failure, announce, dateTime, money, enumText, fromZonedInput, toZonedInput } from "../dom.js";
import { t, calendarDate, moneyOf } from "../i18n.js";
import { baseMapIn } from "../maps.js";

/** "12 mag 2027 – 14 mag 2027" */
const dates = (itinerary) => `${calendarDate(itinerary.startDate)} – ${calendarDate(itinerary.endDate)}`;


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
      name: values.name, destination: values.destination, startDate: values.startDate, endDate: values.endDate, estimatedCost: moneyOf(values.cost, "EUR"),
      idempotencyKey: crypto.randomUUID(),
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

const currencies = ["EUR", "CHF", "USD", "GBP"];
/** A person by name, with their email (names are not unique). */
const person = (name, email) => (name && email ? `${name} (${email})` : name || email || t("itinerary.someoneWhoLeft"));

/** One trip: its details (the organiser edits or deletes it, a member leaves), the events by day
 * on a map (added, edited, deleted), what was spent and by whom, the balances and settle-up, the
 * people and their invites, and the calendar file. */
export async function showOne(main, { params }) {
  const path = `/v1/itineraries/${segment(params.id)}`;
  let itinerary;
  let me;
  try {
    [itinerary, me] = await Promise.all([api("GET", path).then((answer) => answer.itinerary), api("GET", "/v1/me").then((answer) => answer.profile)]);
  } catch (error) {
    return main.append(failure(error));
  }
  const reload = async () => {
    main.replaceChildren(h("h1", {}, t("page.itinerary")));
    await showOne(main, { params });
  };
  const organiser = itinerary.organiserUserId === me.userId;
  const members = itinerary.members || [];
  const names = new Map(members.map((member) => [member.userId, member.displayName]));
  const act = (label, method, suffix, body, done, after = reload) => h("button", { type: "button", class: "secondary", onclick: async (event) => {
    event.target.disabled = true;
    try {
      await api(method, `${path}${suffix}`, body);
      announce(done);
      await after();
    } catch (error) {
      event.target.disabled = false;
      main.append(failure(error));
    }
  } }, label);
  main.querySelector("h1").textContent = itinerary.name;
  main.append(
    h("p", { id: "itinerary-summary" }, `${itinerary.destination}, ${dates(itinerary)}`, itinerary.estimatedCost ? ` · ${t("itinerary.estimated", { cost: money(itinerary.estimatedCost) })}` : ""),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", id: "calendar-file", onclick: async () => {
        const answer = await api("GET", `${path}/calendar`);
        const link = h("a", { href: URL.createObjectURL(new Blob([answer.content], { type: "text/calendar" })), download: answer.fileName });
        document.body.append(link);
        link.click();
        link.remove();
        announce(t("itinerary.calendarSaved"));
      } }, t("itinerary.calendar")),
      organiser
        ? act(t("itinerary.delete"), "DELETE", "", undefined, t("itinerary.deleted"), () => { location.hash = "#/itineraries"; })
        : act(t("itinerary.leave"), "POST", ":leave", {}, t("itinerary.left"), () => { location.hash = "#/itineraries"; })),
    organiser ? h("details", { id: "itinerary-edit" }, h("summary", {}, t("itinerary.edit")), form(t("itinerary.edit"), [
      field(t("itinerary.name"), { name: "name", required: true, value: itinerary.name }),
      field(t("itinerary.destination"), { name: "destination", required: true, value: itinerary.destination }),
      field(t("itinerary.fromDate"), { name: "startDate", type: "date", required: true, value: itinerary.startDate }),
      field(t("itinerary.toDate"), { name: "endDate", type: "date", required: true, value: itinerary.endDate }),
      field(t("itinerary.estimatedCost"), { name: "cost", type: "number", step: "0.01", min: "0", value: itinerary.estimatedCost ? Number(itinerary.estimatedCost.amountMinor) / 100 : "" }),
    ], t("subs.save"), async (values) => {
      await api("PATCH", path, {
        name: values.name, destination: values.destination, startDate: values.startDate, endDate: values.endDate,
        estimatedCost: moneyOf(values.cost, (itinerary.estimatedCost || {}).currency || "EUR"),
        updateMask: ["name", "destination", "startDate", "endDate", "estimatedCost"].join(),
      });
      announce(t("itinerary.saved"));
      await reload();
    }, { id: "itinerary-edit-form", class: "inline" })) : null);

  main.append(events(itinerary, path, reload, me));
  const money_ = h("section", { id: "itinerary-money", "aria-labelledby": "money-heading" });
  main.append(money_);
  await drawMoney(money_, itinerary, path, members, names, me);

  main.append(
    h("h2", {}, t("itinerary.members")),
    h("ul", { id: "itinerary-members" }, members.map((member) => {
      const invite = (itinerary.invites || []).find((entry) => entry.inviteeUserId === member.userId);
      return h("li", {}, person(member.displayName, member.email), member.organiser ? ` (${t("itinerary.organiser")})` : "",
        member.costShare ? ` — ${t("itinerary.share", { share: money(member.costShare) })}` : "",
        organiser && invite ? [" ", act(t("itinerary.remove"), "DELETE", `/invites/${segment(invite.inviteId)}`, undefined, t("itinerary.removed", { name: member.displayName }))] : null);
    })),
    (itinerary.invites || []).length ? h("section", {}, h("h2", {}, t("itinerary.invites")), h("ul", { id: "itinerary-invites-sent" }, itinerary.invites.map((invite) => h("li", {},
      person(invite.inviteeName, invite.inviteeEmail), ` — ${enumText(invite.status)}`,
      invite.invitedByName ? ` · ${t("itinerary.invitedBy", { name: invite.invitedByName })}` : "",
      !invite.inviteeUserId ? ` · ${t("itinerary.waitsForSignUp")}` : "",
      invite.awaitsFriendship ? ` · ${t("itinerary.waitsForFriendship")}` : "",
      organiser && invite.status === "INVITE_STATUS_PENDING" ? [" ", act(t("itinerary.cancelInvite"), "DELETE", `/invites/${segment(invite.inviteId)}`, undefined, t("itinerary.inviteCancelled"))] : null)))) : null,
    organiser ? inviteForm(path, await api("GET", "/v1/friends").catch(() => ({})), reload) : null);
}

/** The events grouped by day, on a map; each can be edited or deleted; a new one added (a click
 * on the map sets its place). */
function events(itinerary, path, reload, me) {
  const section = h("section", { id: "itinerary-events-section", "aria-labelledby": "events-heading" });
  const list = itinerary.events || [];
  const byDay = new Map();
  for (const event of list) {
    const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Rome" }).format(new Date(event.startsAt));
    if (!byDay.has(day)) byDay.set(day, []);
    byDay.get(day).push(event);
  }
  const mapElement = h("div", { id: "itinerary-map", class: "map" });
  const position = h("p", { class: "hint", id: "event-position" }, t("itinerary.mapHint"));
  const eventForm = (event) => {
    const editing = !!event;
    const values = event || {};
    return form(editing ? t("itinerary.editEvent") : t("itinerary.addEvent"), [
      field(t("itinerary.what"), { name: "title", required: true, placeholder: t("itinerary.whatExample"), value: values.title || "" }),
      field(t("itinerary.where"), { name: "place", value: values.place || "" }),
      field(t("itinerary.starts"), { name: "startsAt", type: "datetime-local", required: true, value: values.startsAt ? toZonedInput(new Date(values.startsAt)) : "" }),
      field(t("itinerary.ends"), { name: "endsAt", type: "datetime-local", value: values.endsAt ? toZonedInput(new Date(values.endsAt)) : "" }),
      field(t("itinerary.cost"), { name: "cost", type: "number", step: "0.01", min: "0", value: values.cost && Number(values.cost.amountMinor) ? Number(values.cost.amountMinor) / 100 : "" }),
      field(t("itinerary.notes"), { name: "notes", value: values.notes || "" }),
      h("input", { type: "hidden", name: "latitude", value: values.latitude || "" }),
      h("input", { type: "hidden", name: "longitude", value: values.longitude || "" }),
    ], editing ? t("subs.save") : t("subs.addButton"), async (entered) => {
      const body = {
        title: entered.title, place: entered.place, startsAt: fromZonedInput(entered.startsAt).toISOString(),
        notes: entered.notes, cost: moneyOf(entered.cost, (itinerary.estimatedCost || {}).currency || "EUR"),
        latitude: Number(entered.latitude || 0), longitude: Number(entered.longitude || 0),
        ...(entered.endsAt ? { endsAt: fromZonedInput(entered.endsAt).toISOString() } : {}),
      };
      if (editing) {
        // Only what this form shows: the mask names each field.
        await api("PATCH", `${path}/events/${segment(event.eventId)}`, { event: body, updateMask: Object.keys(body).join() });
      } else {
        await api("POST", `${path}/events`, { event: body, idempotencyKey: crypto.randomUUID() });
      }
      announce(editing ? t("subs.saved", { name: entered.title }) : t("subs.added", { name: entered.title }));
      await reload();
    }, { id: editing ? `event-edit-${event.eventId}` : "event-form", class: "inline" });
  };
  const adding = eventForm(null);
  section.append(
    h("h2", { id: "events-heading" }, t("itinerary.events")),
    list.length ? h("div", { id: "itinerary-events" }, [...byDay.entries()].map(([day, events]) => [
      h("h3", {}, calendarDate(day)),
      h("ol", { class: "events-of-day" }, events.map((event) => h("li", { dataset: { event: event.eventId } },
        h("strong", {}, event.title), ` — ${dateTime(event.startsAt)}`, event.place ? `, ${event.place}` : "",
        event.cost && Number(event.cost.amountMinor) ? ` (${money(event.cost)})` : "", event.notes ? h("p", {}, event.notes) : null,
        event.train ? trainRide(event, me) : null,
        event.train ? null : h("details", {}, h("summary", {}, t("itinerary.editEvent")), eventForm(event)),
        h("button", { type: "button", class: "secondary", onclick: async () => {
          await api("DELETE", `${path}/events/${segment(event.eventId)}`);
          announce(t("subs.removed", { name: event.title }));
          await reload();
        } }, t("subs.remove"))))),
    ]))
      : h("p", { class: "empty" }, t("itinerary.noEvents")),
    mapElement, position, adding, trainFromWallet(path, reload));
  // The map after the section is in the page (Leaflet measures its element).
  queueMicrotask(async () => {
    try {
      const placed = list.filter((event) => event.latitude || event.longitude);
      const map = await baseMapIn(mapElement, t("itinerary.map"), placed.length ? { center: [placed[0].latitude, placed[0].longitude], zoom: 11 } : {});
      for (const event of placed) {
        window.L.circleMarker([event.latitude, event.longitude], { radius: 8, color: "#0b5394", weight: 3, fillColor: "#fff", fillOpacity: 1, className: "event-point" })
          .bindTooltip(event.title).addTo(map);
      }
      if (placed.length > 1) map.fitBounds(placed.map((event) => [event.latitude, event.longitude]), { padding: [30, 30] });
      let chosen = null;
      map.on("click", (click) => {
        adding.querySelector('input[name="latitude"]').value = click.latlng.lat.toFixed(5);
        adding.querySelector('input[name="longitude"]').value = click.latlng.lng.toFixed(5);
        if (chosen) chosen.remove();
        chosen = window.L.circleMarker(click.latlng, { radius: 7, color: "#9a6700", fillColor: "#fb8c00", fillOpacity: 0.9 }).addTo(map);
        position.textContent = t("itinerary.placeChosen", { latitude: click.latlng.lat.toFixed(4), longitude: click.latlng.lng.toFixed(4) });
      });
    } catch (error) {
      mapElement.replaceWith(failure(error));
    }
  });
  return section;
}

/** A train event's ride as it runs now: the train, its platform, how late, cancelled; the
 * ticket in the wallet of whoever added it, for them. */
function trainRide(event, me) {
  const ride = event.train.ride;
  const ticket = event.train.ticketId && event.createdBy === me.userId ? [" · ", h("a", { href: "#/wallet" }, t("itinerary.yourTicket"))] : [];
  if (!ride) return h("p", { class: "train-ride" }, t("itinerary.trainGone"), ticket);
  return h("p", { class: "train-ride", dataset: { delay: String(ride.delayMinutes || 0) } },
    `${t("wallet.train", { train: `${ride.line ? `${ride.line} ` : ""}${ride.trainNumber}` })}, ${ride.fromStationName} → ${ride.toStationName}`,
    h("span", { class: `live status ${ride.cancelled ? "cancelled" : ride.delayMinutes > 0 ? "delayed" : "on-time"}` },
      ride.cancelled ? ` · ${t("run.cancelled")}`
        : ride.delayMinutes > 0 ? ` · ${t("run.late", { count: ride.delayMinutes })} (${dateTime(ride.expectedDeparture)})`
          : ` · ${t("run.onTime")}`,
      ride.platform ? ` · ${t(ride.platformChanged ? "wallet.platformChanged" : "wallet.platform", { platform: ride.platform })}` : ""),
    ticket);
}

/** Adds a train of the person's wallet to the trip: each way of each station ticket still to
 * travel, with its ticket linked. */
function trainFromWallet(path, reload) {
  const section = h("div", { id: "train-from-wallet" });
  queueMicrotask(async () => {
    let tickets;
    try {
      tickets = (await api("GET", "/v1/me/wallet")).tickets || [];
    } catch (error) {
      return section.append(failure(error));
    }
    const ways = tickets.filter((ticket) => ticket.status === "TICKET_STATUS_VALID")
      .flatMap((ticket) => [ticket.outbound, ticket.returnJourney].filter((way) => way && way.run && way.run.tripId)
        .map((way) => ({ ticket, way })));
    if (!ways.length) return section.append(h("p", { class: "hint" }, t("itinerary.noWalletTrains"), " ", h("a", { href: "#/buy" }, t("buy.title"))));
    section.append(form(t("itinerary.trainFromWallet"), [
      field(t("itinerary.walletTrain"), { name: "way", options: ways.map(({ way }, index) => [String(index),
        `${way.fromStationName} → ${way.toStationName}, ${t("wallet.train", { train: way.trainNumber })}, ${dateTime(way.scheduledDeparture)}`]) }),
    ], t("subs.addButton"), async (values) => {
      const { ticket, way } = ways[Number(values.way)];
      await api("POST", `${path}/events`, { event: { train: {
        tripId: way.run.tripId, serviceDate: way.run.serviceDate, fromStationId: way.fromStationId, toStationId: way.toStationId, ticketId: ticket.ticketId,
      } }, idempotencyKey: crypto.randomUUID() });
      announce(t("subs.added", { name: `${way.fromStationName} → ${way.toStationName}` }));
      await reload();
    }, { id: "wallet-train-form", class: "inline" }));
  });
  return section;
}

/** What was spent, the balances per currency with the settle-up transfers, and the form to add
 * an expense split equally, by shares, by percentages or by exact amounts. */
async function drawMoney(section, itinerary, path, members, names, me) {
  const [{ expenses = [] }, balances] = await Promise.all([api("GET", `${path}/expenses`), api("GET", `${path}/balances`)]);
  const nameOf = (id, fallback) => names.get(id) || fallback || t("itinerary.someoneWhoLeft");
  const reloadMoney = async () => {
    section.replaceChildren();
    await drawMoney(section, itinerary, path, members, names, me);
  };
  const split = (expense) => (expense.shares || []).map((share) => `${nameOf(share.userId, share.displayName)} ${money(share.amount)}`).join(", ");
  const methods = ["SPLIT_METHOD_EQUAL", "SPLIT_METHOD_SHARES", "SPLIT_METHOD_PERCENTAGES", "SPLIT_METHOD_EXACT"];
  const currency = (itinerary.estimatedCost || {}).currency || "EUR";
  const adding = form(t("itinerary.addExpense"), [
    field(t("itinerary.expenseWhat"), { name: "description", required: true, placeholder: t("itinerary.expenseExample") }),
    field(t("subs.amount"), { name: "amount", type: "number", step: "any", min: "0", required: true, inputmode: "decimal" }),
    field(t("subs.currency"), { name: "currency", options: [...new Set([currency, ...currencies])].map((code) => [code, code]), value: currency }),
    field(t("itinerary.paidBy"), { name: "paidBy", options: members.map((member) => [member.userId, member.displayName]), value: me.userId }),
    field(t("itinerary.split"), { name: "split", options: methods.map((method) => [method, enumText(method)]), value: "SPLIT_METHOD_EQUAL" }, t("itinerary.splitHint")),
    h("fieldset", { id: "expense-parts" }, h("legend", {}, t("itinerary.forWhom")), members.map((member) => h("div", { class: "part" },
      h("label", { class: "check" }, h("input", { type: "checkbox", name: `for:${member.userId}`, checked: true }), ` ${member.displayName}`),
      h("input", { type: "number", name: `value:${member.userId}`, step: "any", min: "0", "aria-label": t("itinerary.partOf", { name: member.displayName }) })))),
    (itinerary.events || []).length ? field(t("itinerary.forEvent"), { name: "eventId", options: [["", "—"], ...itinerary.events.map((event) => [event.eventId, event.title])] }) : null,
  ], t("subs.addButton"), async (values, element) => {
    const chosen = members.filter((member) => element.querySelector(`input[name="for:${CSS.escape(member.userId)}"]`).checked);
    const value = (member) => values[`value:${member.userId}`] || "0";
    const parts = chosen.map((member) => ({
      userId: member.userId,
      value: values.split === "SPLIT_METHOD_EXACT" ? moneyOf(value(member), values.currency).amountMinor
        : values.split === "SPLIT_METHOD_PERCENTAGES" ? String(Math.round(Number(value(member)) * 100))
          : String(Math.round(Number(value(member)) || 0)),
    }));
    await api("POST", `${path}/expenses`, {
      expense: { description: values.description, amount: moneyOf(values.amount, values.currency), paidByUserId: values.paidBy, split: values.split, shares: parts, eventId: values.eventId || "" },
      idempotencyKey: crypto.randomUUID(),
    });
    announce(t("subs.added", { name: values.description }));
    await reloadMoney();
  }, { id: "expense-form", class: "inline" });
  const settle = (transfer) => h("button", { type: "button", class: "secondary", onclick: async (event) => {
    event.target.disabled = true;
    await api("POST", `${path}/expenses`, {
      expense: { description: t("itinerary.settlement"), amount: transfer.amount, paidByUserId: transfer.fromUserId, settlement: true, shares: [{ userId: transfer.toUserId }] },
      idempotencyKey: crypto.randomUUID(),
    });
    announce(t("itinerary.settled"));
    await reloadMoney();
  } }, t("itinerary.recordTransfer"));
  replace(section,
    h("h2", { id: "money-heading" }, t("itinerary.money")),
    h("p", { class: "hint" }, t("itinerary.estimateHint", { cost: money(balances.estimatedCost) }),
      (balances.eventsCost || []).length ? ` ${t("itinerary.eventsCost", { cost: balances.eventsCost.map(money).join(" + ") })}` : ""),
    (balances.currencies || []).map((entry) => h("div", { class: "balances", dataset: { currency: entry.currency } },
      h("h3", {}, t("itinerary.balancesIn", { currency: entry.currency, spent: money(entry.spent) })),
      h("table", { class: "compact" },
        h("thead", {}, h("tr", {}, ["itinerary.who", "itinerary.paid", "itinerary.owes", "itinerary.balance"].map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, entry.members.map((member) => h("tr", { class: member.member ? "" : "left" },
          h("th", { scope: "row" }, nameOf(member.userId, member.displayName), member.member ? "" : ` (${t("itinerary.notOnTrip")})`),
          h("td", {}, money(member.paid)), h("td", {}, money(member.share)), h("td", { class: "balance" }, money(member.balance)))))),
      (entry.transfers || []).length
        ? h("ul", { class: "transfers" }, entry.transfers.map((transfer) => h("li", {},
          t("itinerary.transfer", { from: nameOf(transfer.fromUserId, transfer.fromName), to: nameOf(transfer.toUserId, transfer.toName), amount: money(transfer.amount) }), " ", settle(transfer))))
        : h("p", { class: "settled" }, t("itinerary.allSettled")))),
    h("h3", {}, t("itinerary.expenses")),
    expenses.length ? h("ul", { id: "itinerary-expenses" }, expenses.map((expense) => h("li", {},
      expense.settlement
        ? t("itinerary.settledItem", { from: nameOf(expense.paidByUserId, expense.paidByName), to: split(expense), amount: money(expense.amount) })
        : t("itinerary.expenseItem", { what: expense.description, who: nameOf(expense.paidByUserId, expense.paidByName), amount: money(expense.amount), parts: split(expense) }),
      " ", h("button", { type: "button", class: "secondary", onclick: async () => {
        await api("DELETE", `${path}/expenses/${segment(expense.expenseId)}`);
        announce(t("subs.removed", { name: expense.description }));
        await reloadMoney();
      } }, t("subs.remove"))))) : h("p", { class: "empty" }, t("itinerary.noExpenses")),
    adding);
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
    let invite;
    if (values.who.startsWith("user:")) invite = await api("POST", `${path}/invites`, { userId: values.who.slice(5) });
    else if (values.who.startsWith("email:")) invite = await api("POST", `${path}/invites`, { email: values.who.slice(6) });
    else {
      // Saved as a contact first: someone not registered gets an email asking them to sign up
      // (the invite waits for their account), someone registered a friend request (the invite
      // waits for their answer). Already a friend or already asked is no obstacle to inviting.
      try {
        await api("POST", "/v1/contacts", { name: values.name || values.email, email: values.email, idempotencyKey: crypto.randomUUID() });
      } catch (error) {
        if (error.status !== 409) throw error;
      }
      invite = await api("POST", `${path}/invites`, { email: values.email });
    }
    announce(invite.invite.awaitsFriendship ? t("itinerary.invitedAwaitingFriendship") : t("itinerary.invited"));
    await reload();
  }, { id: "invite-form", class: "inline" });
}
