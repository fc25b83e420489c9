// A taxi driver's page: their taxi and its place in the zone's queue, availability, the offers
// arriving live (accept or reject, before they expire), and the current ride's steps.

import { api, segment } from "../api.js";
import { openStream } from "../events.js";
import { h, replace, field, form, failure, announce, time, money, enumText } from "../dom.js";
import { t, number } from "../i18n.js";

const place = (value) => (value ? value.address || `${number(value.position.latitude, 4)}, ${number(value.position.longitude, 4)}` : "");

export async function show(main) {
  const taxiBox = h("section", { id: "my-taxi", "aria-labelledby": "taxi-heading" });
  const offers = h("section", { id: "offers", "aria-labelledby": "offers-heading" });
  // Labelled by its heading once there is a ride to show (an empty section names nothing).
  const rideBox = h("section", { id: "ride" });
  const connection = h("p", { class: "connection", role: "status" }, t("board.connecting"));
  main.append(connection, taxiBox, offers, rideBox);
  const live = new Map();

  function drawTaxi(taxi) {
    if (!taxi) return replace(taxiBox, h("h2", { id: "taxi-heading" }, t("driver.taxi")), h("p", {}, t("driver.noTaxi")));
    const available = taxi.state !== "TAXI_STATE_UNAVAILABLE";
    replace(taxiBox, h("h2", { id: "taxi-heading" }, t("driver.taxiCode", { code: taxi.code })),
      h("p", { id: "taxi-state" }, enumText(taxi.state),
        taxi.zoneId ? ` ${t("driver.zone", { zone: taxi.zoneId })}` : "",
        taxi.queuePosition ? `, ${t("driver.queue", { position: taxi.queuePosition })}` : "",
        taxi.unavailableReason ? ` (${taxi.unavailableReason})` : ""),
      available
        ? form(t("driver.stop"), [field(t("driver.why"), { name: "reason", required: true, value: t("driver.break") })], t("driver.goUnavailable"), async (values) => {
          drawTaxi((await api("POST", "/v1/driver/availability", { available: false, reason: values.reason })).taxi);
          announce(t("driver.unavailable"));
        }, { id: "unavailable-form", class: "inline" })
        : h("button", { type: "button", id: "go-available", onclick: async () => {
          drawTaxi((await api("POST", "/v1/driver/availability", { available: true })).taxi);
          announce(t("driver.available"));
        } }, t("driver.goAvailable")));
  }

  function drawOffers() {
    const items = [...live.values()];
    replace(offers, h("h2", { id: "offers-heading" }, t("driver.offers")), items.length
      ? h("ol", { id: "offer-list", class: "cards" }, items.map((offer) => h("li", { class: "card offer", dataset: { offer: offer.offerId } },
        h("h3", {}, t("driver.pickup", { place: place(offer.ride.pickup) })),
        h("p", {}, t("driver.away", { metres: Math.round(offer.distanceMetres) }), offer.ride.destination ? ` · ${t("driver.to", { place: place(offer.ride.destination) })}` : "",
          ` · ${t("driver.passengers", { count: offer.ride.passengers || 1 })}`, offer.ride.estimatedFare ? ` · ${t("driver.about", { fare: money(offer.ride.estimatedFare) })}` : ""),
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

  function drawRide(ride) {
    if (!ride || !ride.rideId) {
      rideBox.removeAttribute("aria-labelledby");
      return replace(rideBox);
    }
    rideBox.setAttribute("aria-labelledby", "ride-heading");
    const path = `/v1/driver/rides/${segment(ride.rideId)}`;
    const step = (verb, label, body = {}) => h("button", { type: "button", onclick: async () => {
      try { drawRide((await api("POST", `${path}:${verb}`, body)).ride); } catch (error) { rideBox.append(failure(error)); }
    } }, label);
    replace(rideBox, h("h2", { id: "ride-heading" }, t("driver.ride")),
      h("p", {}, `${enumText(ride.state)}: ${place(ride.pickup)}`, ride.destination ? ` → ${place(ride.destination)}` : "",
        ride.passengerName ? ` · ${ride.passengerName}` : "", ride.estimatedPickupAt ? ` · ${t("driver.pickupBy", { time: time(ride.estimatedPickupAt) })}` : ""),
      ride.state === "RIDE_STATE_ALLOCATED" ? step("arrived", t("driver.arrived")) : null,
      ride.state === "RIDE_STATE_ARRIVED" ? form(t("driver.start"), [field(t("driver.code"), { name: "code", inputmode: "numeric", required: true })],
        t("driver.startButton"), async (values) => drawRide((await api("POST", `${path}:start`, { passengerCode: values.code })).ride), { id: "start-form", class: "inline" }) : null,
      ride.state === "RIDE_STATE_IN_PROGRESS" ? step("complete", t("driver.complete")) : null,
      ride.fare ? h("p", {}, t("driver.fare", { fare: money(ride.fare) })) : null);
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
  return () => stream.close();
}
