// A taxi driver's page: their taxi and its place in the zone's queue, availability (a break, the
// end of the shift), the device's position reported while on shift, the offers arriving live
// (the pickup, the destination, a booking's meeting time, a shared ride's stops; accept or reject
// before they expire), and the current ride's steps: late, arrived, each passenger on board with
// their code, absent after the wait, given up, completed.

import { api, segment } from "../api.js";
import { openStream } from "../events.js";
import { h, replace, field, form, failure, announce, time, money, enumText, initialCapital } from "../dom.js";
import { t, number } from "../i18n.js";

const place = (value) => (value ? value.address || `${number(value.position.latitude, 4)}, ${number(value.position.longitude, 4)}` : "");
/** The least time between two position reports. */
const reportEvery = 4000;
/** Why a fix was not used, as ReportPosition says. */
const ignoredReasons = {
  inaccurate: "driver.ignoredInaccurate", duplicate: "driver.ignoredDuplicate",
  out_of_order: "driver.ignoredOutOfOrder", too_fast: "driver.ignoredTooFast",
};

function stops(ride) {
  if (!ride.route || !ride.route.length) return null;
  return h("ol", { class: "route" }, ride.route.map((stop) => h("li", { class: stop.done ? "done" : "" },
    `${t(stop.kind === "KIND_PICKUP" ? "taxi.stopPickup" : "taxi.stopDropOff", { name: stop.passengerName })}: ${place(stop.place)}`,
    ` · ${t("driver.passengers", { count: stop.passengers || 1 })}`, stop.done ? ` · ${t("driver.onBoard")}` : "")));
}

export async function show(main) {
  const taxiBox = h("section", { id: "my-taxi", "aria-labelledby": "taxi-heading" });
  const positionBox = h("p", { id: "position-status", role: "status" });
  const offers = h("section", { id: "offers", "aria-labelledby": "offers-heading" });
  // Labelled by its heading once there is a ride to show (an empty section names nothing).
  const rideBox = h("section", { id: "ride" });
  const connection = h("p", { class: "connection", role: "status" }, t("board.connecting"));
  main.append(connection, taxiBox, positionBox, offers, rideBox);
  const live = new Map();
  let onShift = false;
  let watchID = null;
  let lastSent = 0;

  // ---- The device's position, while on shift ----
  function followPosition() {
    if (!onShift) {
      if (watchID !== null) navigator.geolocation.clearWatch(watchID);
      watchID = null;
      replace(positionBox, t("driver.positionOff"));
      return;
    }
    if (watchID !== null) return;
    if (!navigator.geolocation) return replace(positionBox, t("taxi.noGeolocation"));
    replace(positionBox, t("driver.positionWaiting"));
    watchID = navigator.geolocation.watchPosition((found) => send(found),
      (error) => replace(positionBox, t("location.failed", { reason: error.message })), { enableHighAccuracy: true, maximumAge: 2000 });
  }

  // At most one report every few seconds: a fix that comes sooner waits, and only the latest
  // waiting one is sent.
  let waiting = null;
  async function send(found) {
    const early = reportEvery - (Date.now() - lastSent);
    if (early > 0) {
      if (!waiting) setTimeout(() => { const latest = waiting; waiting = null; if (latest && onShift) send(latest); }, early);
      waiting = found;
      return;
    }
    lastSent = Date.now();
    try {
      const answer = await api("POST", "/v1/driver/position", {
        position: { latitude: found.coords.latitude, longitude: found.coords.longitude },
        reportedAt: new Date(found.timestamp || Date.now()).toISOString(),
        accuracyMetres: Math.max(0, found.coords.accuracy || 0),
      });
      replace(positionBox, answer.used
        ? t("driver.positionSent", { time: time(new Date().toISOString()), zone: answer.taxi.zoneId || "—" })
        : t("driver.positionIgnored", { reason: t(ignoredReasons[answer.ignoredReason] || "driver.ignoredInaccurate") }));
      positionBox.dataset.zone = answer.taxi.zoneId || "";
    } catch (error) {
      replace(positionBox, failure(error));
    }
  }

  function drawTaxi(taxi) {
    if (!taxi) return replace(taxiBox, h("h2", { id: "taxi-heading" }, t("driver.taxi")), h("p", {}, t("driver.noTaxi")));
    const available = taxi.state !== "TAXI_STATE_UNAVAILABLE";
    onShift = available || taxi.state === "TAXI_STATE_BUSY";
    followPosition();
    const unavailable = async (reason) => {
      drawTaxi((await api("POST", "/v1/driver/availability", { available: false, reason })).taxi);
      announce(t("driver.unavailable"));
    };
    replace(taxiBox, h("h2", { id: "taxi-heading" }, t("driver.taxiCode", { code: taxi.code })),
      h("p", { id: "taxi-state" }, initialCapital(enumText(taxi.state)),
        taxi.zoneId ? ` ${t("driver.zone", { zone: taxi.zoneId })}` : "",
        taxi.queuePosition ? `, ${t("driver.queue", { position: taxi.queuePosition })}` : "",
        taxi.unavailableReason ? ` (${taxi.unavailableReason})` : ""),
      taxi.state === "TAXI_STATE_BUSY"
        ? h("p", { class: "hint" }, t("driver.onAJob"))
        : available
        ? [form(t("driver.stop"), [field(t("driver.why"), { name: "reason", required: true, value: t("driver.break") })], t("driver.goUnavailable"),
          (values) => unavailable(values.reason), { id: "unavailable-form", class: "inline" }),
        h("button", { type: "button", class: "secondary", id: "end-shift", onclick: () => unavailable(t("driver.endOfShift")) }, t("driver.endShift"))]
        : h("button", { type: "button", id: "go-available", onclick: async () => {
          try {
            drawTaxi((await api("POST", "/v1/driver/availability", { available: true })).taxi);
            announce(t("driver.available"));
          } catch (error) {
            taxiBox.append(failure(error));
          }
        } }, t("driver.goAvailable")));
  }

  function drawOffers() {
    const items = [...live.values()];
    replace(offers, h("h2", { id: "offers-heading" }, t("driver.offers")), items.length
      ? h("ol", { id: "offer-list", class: "cards" }, items.map((offer) => h("li", { class: "card offer", dataset: { offer: offer.offerId } },
        h("h3", {}, t("driver.pickup", { place: place(offer.ride.pickup) })),
        h("p", {}, t("driver.away", { metres: Math.round(offer.distanceMetres) }), offer.ride.destination ? ` · ${t("driver.to", { place: place(offer.ride.destination) })}` : "",
          ` · ${t("driver.passengers", { count: offer.ride.passengers || 1 })}`, offer.ride.estimatedFare ? ` · ${t("driver.about", { fare: money(offer.ride.estimatedFare) })}` : ""),
        offer.ride.meetingAt ? h("p", { class: "meeting" }, t("driver.meeting", { time: time(offer.ride.meetingAt) })) : null,
        stops(offer.ride),
        h("p", {}, t("driver.answerBy", { time: time(offer.expiresAt) })),
        h("div", { class: "toolbar" },
          h("button", { type: "button", class: "accept", onclick: () => answer(offer, "accept") }, t("itinerary.accept")),
          h("button", { type: "button", class: "secondary reject", onclick: () => answer(offer, "reject") }, t("driver.reject"))))))
      : h("p", { class: "empty" }, t("driver.noOffers")));
  }

  async function answer(offer, verb) {
    try {
      const result = await api("POST", `/v1/driver/offers/${segment(offer.offerId)}:${verb}`, {});
      live.delete(offer.offerId);
      drawOffers();
      if (result.taxi) drawTaxi(result.taxi);
      if (result.ride) drawRide(result.ride);
      announce(verb === "accept" ? t("driver.accepted") : t("driver.rejected"));
    } catch (error) {
      offers.append(failure(error));
    }
  }

  // Position reports change the ride every few seconds; only a change the driver acts on redraws
  // it (a code half typed stays).
  let shownRide = "";
  function drawRide(ride, force = false) {
    const signature = JSON.stringify(ride ? [ride.rideId, ride.state, (ride.route || []).map((stop) => stop.done), ride.noShowFrom,
      ride.delayed, ride.fare, ride.estimatedPickupAt] : null);
    if (!force && signature === shownRide) return;
    shownRide = signature;
    const ongoing = ride && ride.rideId && ["RIDE_STATE_ALLOCATED", "RIDE_STATE_ARRIVED", "RIDE_STATE_IN_PROGRESS"].includes(ride.state);
    if (!ride || !ride.rideId) {
      rideBox.removeAttribute("aria-labelledby");
      return replace(rideBox);
    }
    rideBox.setAttribute("aria-labelledby", "ride-heading");
    const path = `/v1/driver/rides/${segment(ride.rideId)}`;
    const run = async (verb, body = {}) => {
      try { drawRide((await api("POST", `${path}:${verb}`, body)).ride); } catch (error) { rideBox.append(failure(error)); }
    };
    const step = (verb, label, id) => h("button", { type: "button", id, onclick: () => run(verb) }, label);
    const shared = ride.route && ride.route.length > 0;
    const waiting = shared ? ride.route.filter((stop) => stop.kind === "KIND_PICKUP" && !stop.done) : [];
    const noShowFrom = ride.noShowFrom ? new Date(ride.noShowFrom) : null;
    replace(rideBox, h("h2", { id: "ride-heading" }, t("driver.ride")),
      h("p", { id: "ride-state" }, `${enumText(ride.state)}: ${place(ride.pickup)}`, ride.destination ? ` → ${place(ride.destination)}` : "",
        ride.passengerName ? ` · ${ride.passengerName}` : "", ride.estimatedPickupAt && ride.state === "RIDE_STATE_ALLOCATED" ? ` · ${t("driver.pickupBy", { time: time(ride.estimatedPickupAt) })}` : ""),
      ride.meetingAt ? h("p", { class: "meeting" }, t("driver.meeting", { time: time(ride.meetingAt) })) : null,
      stops(ride),
      ride.state === "RIDE_STATE_ALLOCATED" ? [
        step("arrived", t("driver.arrived"), "arrived"),
        form(t("driver.late"), [field(t("driver.lateMinutes"), { name: "minutes", type: "number", min: 1, max: 120, value: 5, required: true })],
          t("driver.lateButton"), (values) => run("delay", { minutes: Number(values.minutes) }), { id: "late-form", class: "inline" }),
      ] : null,
      ride.state === "RIDE_STATE_ARRIVED" || (shared && ride.state === "RIDE_STATE_IN_PROGRESS" && waiting.length)
        ? form(t("driver.start"), [field(t("driver.code"), { name: "code", inputmode: "numeric", required: true })],
          t("driver.startButton"), async (values) => drawRide((await api("POST", `${path}:start`, { passengerCode: values.code })).ride), { id: "start-form", class: "inline" })
        : null,
      ride.state === "RIDE_STATE_ARRIVED" || (shared && ride.state === "RIDE_STATE_IN_PROGRESS")
        ? (shared ? waiting : [null]).map((stop) => h("button", {
          type: "button", class: "secondary no-show", disabled: noShowFrom && noShowFrom > new Date() ? true : undefined,
          onclick: () => run("no-show", stop ? { reservationId: stop.reservationId } : {}),
        }, stop ? t("driver.noShowOf", { name: stop.passengerName }) : t("driver.noShow")))
        : null,
      noShowFrom && noShowFrom > new Date() ? h("p", { class: "hint", id: "no-show-from" }, t("driver.noShowFrom", { time: time(ride.noShowFrom) })) : null,
      ride.state === "RIDE_STATE_ALLOCATED" || ride.state === "RIDE_STATE_ARRIVED"
        ? h("details", { id: "give-up" }, h("summary", {}, t("driver.giveUp")),
          form(t("driver.giveUp"), [field(t("driver.why"), { name: "reason", required: true })], t("driver.giveUpButton"),
            (values) => run("give-up", { reason: values.reason }), { class: "inline" }))
        : null,
      ride.state === "RIDE_STATE_IN_PROGRESS" ? step("complete", t("driver.complete"), "complete") : null,
      ride.fare ? h("p", {}, t("driver.fare", { fare: money(ride.fare) })) : null,
      !ongoing ? h("p", { class: "hint" }, enumText(ride.state)) : null);
    // The no-show button comes alive when the wait is over.
    if (noShowFrom && noShowFrom > new Date()) setTimeout(() => drawRide(ride, true), Math.min(noShowFrom - new Date() + 250, 600_000));
  }

  try {
    const mine = await api("GET", "/v1/driver/taxi");
    drawTaxi(mine.taxi);
    if (mine.offer && mine.offer.offerId) live.set(mine.offer.offerId, mine.offer);
    drawRide(mine.ride);
  } catch (error) {
    taxiBox.append(failure(error));
  }
  drawOffers();

  const stream = openStream("/v1/driver/jobs:watch", {
    onState(state) { connection.textContent = state === "open" ? t("board.live") : t("board.reconnecting"); },
    onError(error) { connection.replaceWith(failure(error)); },
    onMessage(event) {
      if (event.offer) {
        live.set(event.offer.offerId, event.offer);
        announce(t("driver.newOffer", { place: place(event.offer.ride.pickup) }));
        drawOffers();
      } else if (event.offerWithdrawn) {
        live.delete(event.offerWithdrawn.offerId);
        drawOffers();
      } else if (event.ride) {
        drawRide(event.ride);
      } else if (event.taxi) {
        drawTaxi(event.taxi);
      }
    },
  });
  return () => {
    stream.close();
    if (watchID !== null) navigator.geolocation.clearWatch(watchID);
  };
}
