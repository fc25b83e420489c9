// A passenger's taxis (myTaxiService): call one now from their position, a saved place, a recent
// address or a typed one, seeing the price and the pickup time before confirming; follow it on
// the map as it comes; book for later, change or delete a booking (shared or not); and every ride
// taken, with "again" from its addresses.

import { api, segment } from "../api.js";
import { openStream } from "../events.js";
import { h, replace, field, form, failure, announce, time, dateTime, money, enumText, initialCapital, toZonedInput, fromZonedInput } from "../dom.js";
import { baseMapIn } from "../maps.js";
import { t, number } from "../i18n.js";

const place = (value) => (value ? value.address || `${number(value.position.latitude, 4)}, ${number(value.position.longitude, 4)}` : "");
const minutesUntil = (iso) => Math.max(0, Math.round((new Date(iso) - Date.now()) / 60000));

/** The rule a passenger reads before cancelling, for a ride as it is now. */
function cancelRule(ride, tariff) {
  const fee = money(tariff.cancellationFee);
  if (ride.state === "RIDE_STATE_SEARCHING") return t("taxi.cancelFreeSearching", { fee });
  const freeUntil = new Date(new Date(ride.requestedAt).getTime() + (tariff.freeCancellationSeconds || 0) * 1000);
  if (freeUntil > new Date()) return t("taxi.cancelFreeUntil", { time: time(freeUntil.toISOString()), fee });
  return t("taxi.cancelCosts", { fee });
}

/** A place field: typed address (with the person's saved places and recent addresses to pick),
 * or the device's position with the button beside it. Its `location()` is the request's. */
function placeField(label, name, suggestions, initial = "") {
  const listId = `${name}-suggestions`;
  let position = null;
  const input = field(label, { name, list: listId, autocomplete: "off", value: initial }, t("taxi.placeHint"));
  const text = input.querySelector("input");
  text.addEventListener("input", () => { position = null; });
  const here = h("button", { type: "button", class: "secondary", id: `${name}-here` }, t("taxi.myPosition"));
  here.addEventListener("click", () => {
    if (!navigator.geolocation) return text.setCustomValidity(t("taxi.noGeolocation"));
    here.disabled = true;
    navigator.geolocation.getCurrentPosition((found) => {
      position = { latitude: found.coords.latitude, longitude: found.coords.longitude };
      text.value = t("taxi.positionValue", { point: `${number(position.latitude, 5)}, ${number(position.longitude, 5)}` });
      here.disabled = false;
      announce(t("taxi.positionFound"));
    }, (error) => {
      here.disabled = false;
      announce(t("location.failed", { reason: error.message }));
    }, { enableHighAccuracy: true, timeout: 15000 });
  });
  const element = h("div", { class: "place-field" }, input, here,
    h("datalist", { id: listId }, suggestions.map((value) => h("option", { value }))));
  return {
    element,
    location() {
      if (position) return { position };
      const typed = text.value.trim();
      return typed ? { address: typed } : undefined;
    },
  };
}

export async function show(main, { query }) {
  const [zones, places, recent] = await Promise.all([
    api("GET", "/v1/taxi/zones"),
    api("GET", "/v1/taxi/places").catch(() => ({ places: [] })),
    api("GET", "/v1/taxi/recent-addresses").catch(() => ({ places: [] })),
  ]);
  const tariff = zones.tariff || {};
  const suggestions = [...(places.places || []).map((saved) => saved.name), ...(recent.places || []).map((entry) => entry.address).filter(Boolean)];
  const callSection = h("section", { id: "call-taxi", "aria-labelledby": "call-heading" });
  const bookSection = h("section", { id: "book-taxi", "aria-labelledby": "book-heading" });
  const reservationsSection = h("section", { id: "reservations", "aria-labelledby": "reservations-heading" });
  const historySection = h("section", { id: "ride-history", "aria-labelledby": "history-heading" });
  main.append(
    // The address's fragment is the page's route: the sections are reached by scrolling to them.
    h("nav", { class: "toolbar", "aria-label": t("taxi.sections") },
      [[callSection, "taxi.call"], [bookSection, "taxi.book"], [reservationsSection, "taxi.reservations"], [historySection, "taxi.history"]]
        .map(([section, label]) => h("button", { type: "button", class: "secondary", onclick: () => {
          section.scrollIntoView({ behavior: "smooth" });
          section.querySelector("h2")?.focus?.();
        } }, t(label)))),
    callSection, bookSection, reservationsSection, historySection);

  // ---- Call a taxi now: the estimate first, then the request ----
  const pickup = placeField(t("taxi.pickup"), "pickup", suggestions, query.from || "");
  const destination = placeField(t("taxi.destination"), "destination", suggestions, query.to || "");
  const quote = h("div", { id: "taxi-quote", "aria-live": "polite" });
  let estimateFor = null;
  let key = crypto.randomUUID();
  const callForm = form(t("taxi.call"), [
    pickup.element, destination.element,
    field(t("taxi.passengers"), { name: "passengers", type: "number", min: 1, max: 16, value: 1, required: true }, t("taxi.passengersHint")),
  ], t("taxi.seeEstimate"), async (values) => {
    const body = { pickup: pickup.location(), destination: destination.location(), passengers: Number(values.passengers) || 1 };
    const estimate = await api("POST", "/v1/taxi/estimate", body);
    estimateFor = body;
    key = crypto.randomUUID();
    replace(quote, h("div", { class: "card", id: "estimate" },
      h("h3", {}, t("taxi.estimateTitle")),
      h("p", { id: "estimate-fare" }, estimate.estimatedFare ? t("taxi.estimateFare", { fare: money(estimate.estimatedFare) }) : t("taxi.noDestinationNoFare")),
      estimate.taxis > 1 ? h("p", {}, t("taxi.severalTaxis", { count: estimate.taxis })) : null,
      h("p", { id: "estimate-eta" }, estimate.pickupEta
        ? t("taxi.estimateEta", { time: time(estimate.pickupEta), minutes: minutesUntil(estimate.pickupEta) })
        : t("taxi.noneFreeNearby")),
      h("p", { class: "hint" }, t("taxi.cancelRule", { seconds: estimate.freeCancellationSeconds || 0, fee: money(estimate.cancellationFee) })),
      h("button", { type: "button", id: "confirm-taxi", onclick: confirm }, estimate.taxis > 1 ? t("taxi.callSeveral", { count: estimate.taxis }) : t("taxi.callNow"))));
    announce(t("taxi.estimateReady"));
  }, { id: "call-form" });

  async function confirm(event) {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const answer = await api("POST", "/v1/taxi/rides", { ...estimateFor, idempotencyKey: key });
      location.hash = `#/taxi/${segment(answer.ride.rideId)}`;
    } catch (error) {
      button.disabled = false;
      quote.append(failure(error));
    }
  }
  replace(callSection, h("h2", { id: "call-heading" }, t("taxi.call")), callForm, quote);

  // ---- Book for later ----
  const earliest = new Date(Date.now() + 2 * 3600_000 + 5 * 60_000);
  const bookPickup = placeField(t("taxi.pickup"), "book-pickup", suggestions, query.from || "");
  const bookDestination = placeField(t("taxi.destination"), "book-destination", suggestions, query.to || "");
  replace(bookSection, h("h2", { id: "book-heading" }, t("taxi.book")),
    form(t("taxi.book"), [
      bookPickup.element, bookDestination.element,
      field(t("taxi.meetingAt"), { name: "meetingAt", type: "datetime-local", required: true, value: toZonedInput(earliest) }, t("taxi.meetingHint")),
      field(t("taxi.passengers"), { name: "passengers", type: "number", min: 1, max: 8, value: 1, required: true }),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "shared", value: "yes" }), ` ${t("taxi.shared")}`),
      h("p", { class: "hint" }, t("taxi.sharedHint")),
    ], t("taxi.bookButton"), async (values, element) => {
      const answer = await api("POST", "/v1/taxi/reservations", {
        pickup: bookPickup.location(), destination: bookDestination.location(), meetingAt: fromZonedInput(values.meetingAt),
        passengers: Number(values.passengers) || 1, shared: values.shared === "yes", idempotencyKey: element.dataset.key,
      });
      element.dataset.key = crypto.randomUUID();
      announce(t("taxi.booked", { time: dateTime(answer.reservation.meetingAt) }));
      await drawReservations();
    }, { id: "book-form", "data-key": crypto.randomUUID() }));

  // ---- Reservations: to come (edit, delete) and past ----
  async function drawReservations() {
    try {
      const listed = await api("GET", "/v1/taxi/reservations");
      replace(reservationsSection, h("h2", { id: "reservations-heading" }, t("taxi.reservations")),
        (listed.reservations || []).length
          ? h("ul", { class: "cards", id: "reservations-to-come" }, listed.reservations.map(reservationCard))
          : h("p", { class: "empty" }, t("taxi.noReservations")),
        (listed.past || []).length ? [h("h3", {}, t("taxi.pastReservations")),
          h("ul", { class: "cards", id: "reservations-past" }, listed.past.map(reservationCard))] : null);
    } catch (error) {
      reservationsSection.append(failure(error));
    }
  }

  function reservationCard(reservation) {
    const path = `/v1/taxi/reservations/${segment(reservation.reservationId)}`;
    const editable = reservation.state === "RESERVATION_STATE_SCHEDULED" && new Date(reservation.editableUntil) > new Date();
    const open = reservation.state !== "RESERVATION_STATE_CANCELLED";
    const card = h("li", { class: "card reservation", dataset: { reservation: reservation.reservationId } },
      h("h3", {}, dateTime(reservation.meetingAt)),
      h("p", {}, `${place(reservation.pickup)} → ${place(reservation.destination)} · ${t("driver.passengers", { count: reservation.passengers || 1 })}`),
      h("p", {}, enumText(reservation.state),
        reservation.shared ? ` · ${t("taxi.sharingWith", { count: reservation.sharingWith || 0 })}` : "",
        reservation.fare ? ` · ${t(reservation.shared ? "taxi.yourShare" : "taxi.estimateShort", { fare: money(reservation.fare) })}` : "",
        reservation.shared && reservation.soloFare ? ` (${t("taxi.neverMore", { fare: money(reservation.soloFare) })})` : ""),
      open && reservation.passengerCode ? h("p", { class: "code" }, t("taxi.yourCode"), " ", h("strong", {}, reservation.passengerCode)) : null,
      reservation.cancellationFee && reservation.cancellationFee.amountMinor > 0 ? h("p", {}, t("taxi.feeCharged", { fee: money(reservation.cancellationFee) })) : null,
      reservation.rideId && open ? h("p", {}, h("a", { href: `#/taxi/${segment(reservation.rideId)}` }, t("taxi.followRide"))) : null,
      editable ? h("p", { class: "hint" }, t("taxi.editableUntil", { time: dateTime(reservation.editableUntil) })) : null);
    if (editable) {
      card.append(h("details", {}, h("summary", {}, t("taxi.change")),
        form(t("taxi.change"), [
          field(t("taxi.meetingAt"), { name: "meetingAt", type: "datetime-local", required: true, value: toZonedInput(new Date(reservation.meetingAt)) }),
          field(t("taxi.passengers"), { name: "passengers", type: "number", min: 1, max: 8, value: reservation.passengers || 1 }),
          field(t("taxi.pickup"), { name: "pickup", value: reservation.pickup.address || "" }, t("taxi.keepHint")),
          field(t("taxi.destination"), { name: "destination", value: reservation.destination.address || "" }, t("taxi.keepHint")),
        ], t("taxi.save"), async (values) => {
          const body = { meetingAt: fromZonedInput(values.meetingAt), passengers: Number(values.passengers) || undefined };
          if (values.pickup.trim() && values.pickup.trim() !== reservation.pickup.address) body.pickup = { address: values.pickup.trim() };
          if (values.destination.trim() && values.destination.trim() !== reservation.destination.address) body.destination = { address: values.destination.trim() };
          await api("PATCH", path, body);
          announce(t("taxi.changed"));
          await drawReservations();
        }, { class: "edit-reservation" })));
    }
    if (open) {
      const rule = reservation.rideId ? t("taxi.deleteRuleDispatched", { fee: money(tariff.cancellationFee) }) : t("taxi.deleteRuleFree", { fee: money(tariff.cancellationFee) });
      card.append(h("p", { class: "hint" }, rule), h("button", { type: "button", class: "secondary delete-reservation", onclick: async (event) => {
        event.currentTarget.disabled = true;
        try {
          const answer = await api("DELETE", path);
          const fee = answer.reservation.cancellationFee;
          announce(fee && fee.amountMinor > 0 ? t("taxi.deletedWithFee", { fee: money(fee) }) : t("taxi.deletedFree"));
          await drawReservations();
        } catch (error) {
          card.append(failure(error));
        }
      } }, t("taxi.delete")));
    }
    return card;
  }

  // ---- Every ride taken, with "again" ----
  async function drawHistory(pageToken = "") {
    try {
      const page = await api("GET", `/v1/taxi/rides?page_size=20${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ""}`);
      const list = pageToken ? historySection.querySelector("#rides") : h("ol", { id: "rides", class: "cards" });
      for (const ride of page.rides || []) {
        const again = new URLSearchParams();
        if (ride.pickup?.address) again.set("from", ride.pickup.address);
        if (ride.destination?.address) again.set("to", ride.destination.address);
        list.append(h("li", { class: "card ride", dataset: { ride: ride.rideId } },
          h("h3", {}, h("a", { href: `#/taxi/${segment(ride.rideId)}` }, dateTime(ride.requestedAt))),
          h("p", {}, `${place(ride.pickup)}${ride.destination ? ` → ${place(ride.destination)}` : ""}`),
          h("p", {}, enumText(ride.state), ride.endReason && ride.state !== "RIDE_STATE_COMPLETED" ? ` (${enumText(ride.endReason)})` : "",
            ride.route && ride.route.length ? ` · ${t("taxi.sharedRide")}` : "",
            ride.fare ? ` · ${money(ride.fare)}` : "",
            ride.cancellationFee && ride.cancellationFee.amountMinor > 0 ? ` · ${t("taxi.feeCharged", { fee: money(ride.cancellationFee) })}` : ""),
          again.toString() ? h("a", { class: "button secondary again", href: `#/taxi?${again}` }, t("taxi.again")) : null));
      }
      if (!pageToken) {
        replace(historySection, h("h2", { id: "history-heading" }, t("taxi.history")),
          (page.rides || []).length ? list : h("p", { class: "empty" }, t("taxi.noRides")));
      }
      historySection.querySelector(".more")?.remove();
      if (page.nextPageToken) {
        historySection.append(h("button", { type: "button", class: "secondary more", onclick: () => drawHistory(page.nextPageToken) }, t("taxi.more")));
      }
    } catch (error) {
      historySection.append(failure(error));
    }
  }
  await Promise.all([drawReservations(), drawHistory()]);
}

/** One ride as it happens: the taxi on the map as it comes, when it should be there, the code
 * to give the driver, cancelling with its rule stated, and the receipt at the end. */
export async function showRide(main, { params }) {
  const rideID = params.ride;
  const zones = await api("GET", "/v1/taxi/zones");
  const tariff = zones.tariff || {};
  const status = h("section", { id: "ride-status", "aria-live": "polite", "aria-labelledby": "ride-heading" });
  const mapElement = h("div", { id: "ride-map", class: "map" });
  const connection = h("p", { class: "connection", role: "status" }, t("board.connecting"));
  main.append(connection, status, mapElement, h("p", {}, h("a", { href: "#/taxi" }, t("taxi.back"))));
  const map = await baseMapIn(mapElement, t("taxi.mapLabel"), { zoom: 14 });
  const layer = window.L.layerGroup().addTo(map);
  let pickupMarker = null;
  let taxiMarker = null;
  let lastState = "";

  function draw(ride) {
    if (!pickupMarker) {
      pickupMarker = window.L.circleMarker([ride.pickup.position.latitude, ride.pickup.position.longitude], {
        radius: 9, color: "#0b5394", weight: 3, fillColor: "#fff", fillOpacity: 1, className: "pickup",
      }).bindTooltip(t("taxi.pickupHere")).addTo(layer);
      map.setView([ride.pickup.position.latitude, ride.pickup.position.longitude], 15);
    }
    if (ride.taxiPosition && ["RIDE_STATE_ALLOCATED", "RIDE_STATE_ARRIVED", "RIDE_STATE_IN_PROGRESS"].includes(ride.state)) {
      const at = [ride.taxiPosition.latitude, ride.taxiPosition.longitude];
      if (!taxiMarker) {
        taxiMarker = window.L.circleMarker(at, { radius: 8, color: "#24292f", weight: 1, fillColor: "#fb8c00", fillOpacity: 1, className: "taxi" })
          .bindTooltip(t("taxi.theTaxi", { code: ride.taxiCode })).addTo(layer);
        map.fitBounds(window.L.latLngBounds([at, pickupMarker.getLatLng()]), { padding: [40, 40], maxZoom: 16 });
      } else {
        taxiMarker.setLatLng(at);
      }
      mapElement.dataset.taxi = `${ride.taxiPosition.latitude},${ride.taxiPosition.longitude}`;
    }
    const open = ["RIDE_STATE_SEARCHING", "RIDE_STATE_ALLOCATED", "RIDE_STATE_ARRIVED"].includes(ride.state);
    const lines = [h("h2", { id: "ride-heading" }, initialCapital(enumText(ride.state)))];
    if (ride.state === "RIDE_STATE_SEARCHING") {
      lines.push(h("p", { id: "searching" }, ride.searchRound > 1
        ? t("taxi.searchingAgain", { round: ride.searchRound, time: time(ride.searchingUntil) })
        : t("taxi.searching", { time: time(ride.searchingUntil) })));
    }
    if (ride.taxiCode) lines.push(h("p", { id: "taxi-code" }, t("taxi.yourTaxi", { code: ride.taxiCode, plate: ride.taxiPlate })));
    if (ride.state === "RIDE_STATE_ALLOCATED") {
      const eta = ride.taxiEta || ride.estimatedPickupAt;
      lines.push(h("p", { id: "taxi-eta", dataset: { minutes: minutesUntil(eta) } }, t("taxi.eta", { time: time(eta), minutes: minutesUntil(eta) }),
        ride.delayed ? h("strong", { class: "status delayed" }, ` ${t("control.late")}`) : null));
    }
    if (ride.state === "RIDE_STATE_ARRIVED") lines.push(h("p", {}, t("taxi.isHere")));
    if (open || ride.state === "RIDE_STATE_IN_PROGRESS") {
      lines.push(h("p", { class: "code" }, t("taxi.yourCode"), " ", h("strong", { id: "passenger-code" }, ride.passengerCode)));
    }
    if (ride.meetingAt) lines.push(h("p", {}, t("taxi.meetingTime", { time: dateTime(ride.meetingAt) })));
    if (ride.route && ride.route.length) {
      lines.push(h("h3", {}, t("taxi.sharedRoute")), h("ol", { class: "route" }, ride.route.map((stop) =>
        h("li", {}, `${t(stop.kind === "KIND_PICKUP" ? "taxi.stopPickup" : "taxi.stopDropOff", { name: stop.passengerName })}: ${place(stop.place)}`))));
    }
    if (ride.state === "RIDE_STATE_COMPLETED") {
      lines.push(h("div", { class: "card receipt", id: "receipt" }, h("h3", {}, t("taxi.receipt")),
        h("p", {}, `${place(ride.pickup)}${ride.destination ? ` → ${place(ride.destination)}` : ""}`),
        ride.distanceMetres ? h("p", {}, t("taxi.distance", { km: number(ride.distanceMetres / 1000, 1) })) : null,
        ride.fare ? h("p", {}, h("strong", {}, t("taxi.charged", { fare: money(ride.fare), card: ride.cardLast4 }))) : h("p", {}, t("taxi.settling"))));
    }
    if (ride.state === "RIDE_STATE_CANCELLED" || ride.state === "RIDE_STATE_NO_TAXI") {
      const fee = ride.cancellationFee;
      lines.push(h("p", { id: "ended" }, ride.endReason ? enumText(ride.endReason) : "",
        fee && fee.amountMinor > 0 ? ` · ${t("taxi.feeCharged", { fee: money(fee) })}` : ` · ${t("taxi.nothingCharged")}`));
      lines.push(h("a", { class: "button", href: "#/taxi" }, t("taxi.callAnother")));
    }
    if (open) {
      lines.push(h("p", { class: "hint", id: "cancel-rule" }, cancelRule(ride, tariff)),
        h("button", { type: "button", class: "secondary", id: "cancel-ride", onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            draw((await api("POST", `/v1/taxi/rides/${segment(rideID)}:cancel`, {})).ride);
          } catch (error) {
            status.append(failure(error));
          }
        } }, t("taxi.cancel")));
    }
    replace(status, lines);
    if (ride.state !== lastState) {
      announce(enumText(ride.state));
      lastState = ride.state;
    }
  }

  try {
    draw((await api("GET", `/v1/taxi/rides/${segment(rideID)}`)).ride);
  } catch (error) {
    status.append(failure(error));
    return undefined;
  }
  const stream = openStream(`/v1/taxi/rides/${segment(rideID)}:watch`, {
    onState(state) { connection.textContent = state === "open" ? t("board.live") : t("board.reconnecting"); },
    onError(error) { connection.replaceWith(failure(error)); },
    onMessage(message) { draw(message.ride); },
  });
  return () => stream.close();
}
