// Buying a ticket where a traveller is: a train ticket between two stations (one way or return,
// on a date and from a time, in a class, for up to ten passengers), a zone ticket, a carnet or a
// pass. The quote shows its lines, its total and what the ticket is valid for; a saved card or
// a new one pays. A board row, a journey and a trip page open this page with their train chosen.
// A journey with changes is one ticket for all its trains.

import { api, withQuery } from "../api.js";
import { h, replace, field, form, announce, money, dateTime, today, fromZonedInput, toZonedInput } from "../dom.js";
import { t } from "../i18n.js";
import { stopTime, journeyStops } from "./runs.js";
import { cardFields, addCard } from "../cards.js";

/** The products, each with its name's key. */
const products = [["station", "buy.station"], ["zone", "buy.zone"], ["carnet", "buy.carnet"], ["monthly", "buy.monthly"], ["yearly", "buy.yearly"]];

export async function show(main, { query }) {
  const [stationsAnswer, cardsAnswer, fares] = await Promise.all([
    api("GET", "/v1/stations"), api("GET", "/v1/payment-methods"), api("GET", "/v1/fares"),
  ]);
  const stations = (stationsAnswer.stations || []).map((station) => [station.stationId, station.name]);
  let cards = cardsAnswer.paymentMethods || [];
  const zones = [...new Set((fares.zoneFares || []).map((fare) => fare.zones).filter(Boolean))];
  const carnets = fares.carnets || [];
  const chosenTime = query.time ? new Date(query.time) : new Date();
  const choices = h("section", { id: "buy-choices", "aria-live": "polite" });
  const quoteBox = h("section", { id: "quote", "aria-live": "polite" });
  let carnetRides = 0;

  const ticketForm = form(t("buy.title"), [
    field(t("buy.ticket"), { name: "product", options: products.map(([product, key]) => [product, t(key)]), value: query.zones ? "zone" : "station" }),
    h("fieldset", { class: "for-station" }, h("legend", {}, t("buy.station")),
      field(t("journeys.from"), { name: "fromStationId", options: stations, value: query.from || "MALPENSA_T1" }),
      field(t("journeys.to"), { name: "toStationId", options: stations, value: query.to || "MI_CENTRALE" }),
      // A train chosen elsewhere: the day it leaves the chosen station (after midnight, the day
      // after its service date).
      field(t("buy.date"), { name: "date", type: "date", value: query.time ? toZonedInput(chosenTime).slice(0, 10) : (query.date || today()) }),
      field(t("buy.time"), { name: "time", type: "time", value: toZonedInput(chosenTime).slice(11, 16) }),
      field(t("buy.class"), { name: "travelClass", options: [["TRAVEL_CLASS_SECOND", t("enum.TRAVEL_CLASS_SECOND")], ["TRAVEL_CLASS_FIRST", t("enum.TRAVEL_CLASS_FIRST")]] }),
      field(t("buy.way"), { name: "way", options: [["one-way", t("buy.oneWay")], ["return", t("buy.return")]] }),
      field(t("buy.returnDate"), { name: "returnDate", type: "date", value: query.date || today() }, t("buy.returnHint")),
      field(t("buy.returnTime"), { name: "returnTime", type: "time", value: "17:00" })),
    h("fieldset", { class: "for-zones" }, h("legend", {}, t("buy.zones")),
      field(t("buy.zones"), { name: "zones", options: zones.map((zone) => [zone, zone]), value: query.zones || "Mi1-Mi3" }),
      field(t("buy.carnet"), { name: "carnet", options: carnets.map((carnet) => [`${carnet.zones}|${carnet.rides}`, t("buy.carnetOption", { count: carnet.rides, zones: carnet.zones, price: money(carnet.price) })]) })),
    field(t("buy.passengers"), { name: "passengers", type: "number", min: 1, max: 10, value: "1" }),
  ], t("buy.next"), next, { id: "buy-form" });
  main.append(ticketForm, choices, quoteBox);

  // Only the fields of the chosen product are shown.
  const shownFields = () => {
    const values = Object.fromEntries(new FormData(ticketForm).entries());
    ticketForm.querySelector(".for-station").hidden = values.product !== "station";
    ticketForm.querySelector(".for-zones").hidden = values.product === "station";
    for (const name of ["carnet"]) ticketForm.elements[name].closest(".field").hidden = values.product !== "carnet";
    for (const name of ["returnDate", "returnTime"]) ticketForm.elements[name].closest(".field").hidden = values.way !== "return";
  };
  ticketForm.addEventListener("change", shownFields);
  shownFields();
  if (query.trip) await next(Object.fromEntries(new FormData(ticketForm).entries()));

  /** The form's next step: trains to choose from for a train ticket, a quote for the others. */
  async function next(values) {
    replace(quoteBox);
    const passengers = Number(values.passengers) || 1;
    if (values.product !== "station") {
      const body = { passengers };
      if (values.product === "zone") body.zone = { zones: values.zones };
      else if (values.product === "carnet") {
        const [zonesOfCarnet, rides] = (values.carnet || "|").split("|");
        body.carnet = { zones: zonesOfCarnet, rides: Number(rides) };
        carnetRides = Number(rides);
      } else body.pass = { period: values.product === "monthly" ? "PASS_PERIOD_MONTHLY" : "PASS_PERIOD_YEARLY", zones: values.zones };
      replace(choices);
      return showQuote((await api("POST", "/v1/tickets:quote", body)).quote);
    }
    const after = fromZonedInput(`${values.date}T${values.time || "00:00"}`);
    const outbound = await journeysBetween(values.fromStationId, values.toStationId, after);
    const returning = values.way === "return"
      ? await journeysBetween(values.toStationId, values.fromStationId, fromZonedInput(`${values.returnDate}T${values.returnTime || "00:00"}`))
      : null;
    const tripsOf = (journey) => journey.legs.map((leg) => leg.run.run.tripId).join(",");
    const pick = (name, legend, journeys, preferred) => h("fieldset", { class: "runs" }, h("legend", {}, legend),
      journeys.length
        ? journeys.map((journey, index, all) => {
          // The journey chosen elsewhere if it is among them (its trains, or its first train),
          // else the first.
          let preferredIndex = all.findIndex((candidate) => tripsOf(candidate) === preferred);
          if (preferredIndex < 0) preferredIndex = all.findIndex((candidate) => candidate.legs[0].run.run.tripId === preferred);
          const checked = index === Math.max(preferredIndex, 0);
          return h("label", { class: "run-choice", dataset: { legs: String(journey.legs.length) } },
            h("input", { type: "radio", name, value: String(index), checked, required: true }),
            journey.legs.map((leg, legIndex) => {
              const { board, alight } = journeyStops(leg);
              const change = legIndex > 0
                ? h("span", { class: "change" }, ` · ${t("buy.changeAt", { station: board.station.name })} · `)
                : " ";
              return [change, `${leg.run.line} ${leg.run.trainNumber}: ${board.station.name} `, stopTime(board),
                ` → ${alight.station.name} `, stopTime(alight, "Arrival")];
            }));
        })
        : h("p", { class: "empty" }, t("buy.noTrain")));
    replace(choices, form(t("buy.chooseTrains"), [
      pick("outbound", t("buy.outbound"), outbound, query.trip),
      returning ? pick("back", t("buy.back"), returning, null) : null,
    ], t("buy.getPrice"), async (chosen) => {
      const going = outbound[Number(chosen.outbound)];
      const back = returning ? returning[Number(chosen.back)] : null;
      if (!going || (returning && !back)) throw new Error(t("buy.noTrain"));
      // A direct train each way is asked for as one run; a journey with changes by its legs.
      const legsOf = (journey) => journey.legs.map((leg) => {
        const { board, alight } = journeyStops(leg);
        return { run: leg.run.run, fromStationId: board.station.stationId, toStationId: alight.station.stationId };
      });
      const station = { travelClass: values.travelClass };
      if (going.legs.length === 1) Object.assign(station, { run: going.legs[0].run.run, fromStationId: values.fromStationId, toStationId: values.toStationId });
      else station.legs = legsOf(going);
      if (back && back.legs.length === 1) station.returnRun = back.legs[0].run.run;
      else if (back) station.returnLegs = legsOf(back);
      showQuote((await api("POST", "/v1/tickets:quote", { passengers, station })).quote);
    }, { id: "trains-form" }));
  }

  /** Journeys from one station to another leaving at or after `after`: direct trains, and
   * journeys with a change where they do not fill the list. */
  async function journeysBetween(from, to, after) {
    const answer = await api("GET", withQuery("/v1/journeys", {
      from_station_id: from, to_station_id: to, limit: 8, departure_after: after.toISOString(),
    }));
    return answer.journeys || [];
  }

  function validity(quote) {
    switch (quote.kind) {
      case "TICKET_KIND_STATION": return t("buy.validOnTrain", { minutes: fares.stationRideMinutes || 240 });
      case "TICKET_KIND_ZONE": return t("buy.validMinutes", { minutes: fares.zoneRideMinutes || 90 });
      case "TICKET_KIND_CARNET": return t("buy.validRides", { count: carnetRides, minutes: fares.zoneRideMinutes || 90 });
      default: return t("buy.validPass");
    }
  }

  function showQuote(quote) {
    // One key per quote: pressing Pay again after a failure retries the same purchase.
    const idempotencyKey = crypto.randomUUID();
    const cardChoices = cards.map((card) => [card.paymentMethodId, t("buy.savedCard", { last4: card.last4 })]).concat([["new", t("buy.newCard")]]);
    const preferred = (cards.find((card) => card.isDefault) || cards[0])?.paymentMethodId || "new";
    const newCard = h("fieldset", { class: "new-card" }, h("legend", {}, t("card.title")),
      cardFields({ required: false }));
    const payForm = form(t("buy.pay"), [
      field(t("buy.card"), { name: "paymentMethodId", options: cardChoices, value: preferred }),
      newCard,
    ], t("buy.payTotal", { total: money(quote.total) }), async (values) => {
      let paymentMethodId = values.paymentMethodId;
      if (paymentMethodId === "new") {
        paymentMethodId = (await addCard(values)).paymentMethodId;
        cards = (await api("GET", "/v1/payment-methods")).paymentMethods || [];
      }
      const purchase = (await api("POST", "/v1/tickets:purchase", { quoteId: quote.quoteId, idempotencyKey, paymentMethodId })).purchase;
      announce(t("buy.bought", { tickets: purchase.tickets.map((ticket) => ticket.description).join("; ") }));
      replace(quoteBox, h("p", { role: "status", class: "bought" }, t("buy.paid", { total: money(purchase.total) }), " ",
        h("a", { href: "#/wallet" }, t("page.wallet"))));
    }, { id: "pay-form" });
    const shownCard = () => { newCard.hidden = payForm.elements.paymentMethodId.value !== "new"; };
    payForm.addEventListener("change", shownCard);
    shownCard();
    replace(quoteBox, h("h2", {}, t("buy.quote")),
      h("table", { class: "quote" }, h("tbody", {}, (quote.lines || []).map((line) => h("tr", {},
        h("td", {}, line.description), h("td", {}, `${line.quantity} × ${money(line.unitPrice)}`), h("td", {}, money(line.amount))))),
      h("tfoot", {}, h("tr", {}, h("th", { scope: "row", colspan: 2 }, t("buy.total")), h("td", {}, money(quote.total))))),
      h("p", { class: "validity" }, validity(quote)),
      h("p", { class: "hint" }, t("buy.heldUntil", { time: dateTime(quote.expiresAt) })),
      payForm);
    payForm.querySelector("select").focus();
  }
}
