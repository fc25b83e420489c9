// The wallet: valid tickets with their validation code as a QR code and the live state of each
// train they are for (both ways of a return, every train of a journey with changes), a way to
// the buy page, and the purchase history.

import { api } from "../api.js";
import { h, replace, failure, money, dateTime, enumText } from "../dom.js";
import { qrCanvas } from "../qr.js";
import { t } from "../i18n.js";
import { qrcode } from "../libraries.js";

/** One way of a station ticket: its train and times, and the train's live state at the stop
 * where the traveller boards (late, cancelled, its platform now). */
function journeyLine(journey, which, heading) {
  const live = journey.live;
  return h("p", { class: "journey", dataset: { way: which } },
    h("strong", {}, heading), " ",
    `${journey.fromStationName} → ${journey.toStationName}, ${t("wallet.train", { train: journey.trainNumber })}, `,
    dateTime(journey.scheduledDeparture),
    live ? h("span", { class: "live" },
      live.cancelled ? ` · ${t("run.cancelled")}` : "",
      live.delayMinutes > 0 ? ` · ${t("run.late", { count: live.delayMinutes })}` : "",
      live.platform ? ` · ${t(live.platformChanged ? "wallet.platformChanged" : "wallet.platform", { platform: live.platform })}` : "") : null);
}

function ticketCard(ticket) {
  const usable = ticket.status === "TICKET_STATUS_VALID";
  return h("li", { class: "card ticket", dataset: { ticket: ticket.ticketId } },
    h("h3", {}, ticket.description),
    h("p", {}, h("span", { class: `status ${usable ? "on-time" : "cancelled"}` }, enumText(ticket.status)),
      " · ", money(ticket.price),
      ticket.ridesTotal ? ` · ${t("wallet.ridesLeft", { count: ticket.ridesTotal - (ticket.ridesUsed || 0), total: ticket.ridesTotal })}` : "",
      ticket.validUntil ? ` · ${t("wallet.validUntil", { time: dateTime(ticket.validUntil) })}` : ""),
    ticket.outbound ? journeyLine(ticket.outbound, "outbound", t("wallet.outbound")) : null,
    (ticket.outboundConnections || []).map((leg) => journeyLine(leg, "outbound-change", t("wallet.changeAt", { station: leg.fromStationName }))),
    ticket.returnJourney ? journeyLine(ticket.returnJourney, "back", t("wallet.back")) : null,
    (ticket.returnConnections || []).map((leg) => journeyLine(leg, "back-change", t("wallet.changeAt", { station: leg.fromStationName }))),
    usable ? h("figure", {}, qrCanvas(ticket.validationCode, t("wallet.codeOf", { ticket: ticket.description })),
      h("figcaption", {}, t("wallet.showCode"))) : null);
}

export async function show(main) {
  await qrcode();
  const tickets = h("ol", { id: "tickets", class: "cards" });
  const buying = h("p", {}, h("a", { href: "#/buy", class: "button" }, t("buy.title")));
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

  for (const [load, where] of [[loadTickets, tickets], [loadHistory, historyList]]) {
    try { await load(); } catch (error) { where.append(failure(error)); }
  }
}
