// A taxi driver's page: their taxi and its place in the zone's queue, availability, the offers
// arriving live (accept or reject, before they expire), and the current ride's steps.

import { api, segment } from "../api.js";
import { openStream } from "../events.js";
import { h, replace, field, form, failure, announce, time, money, enumText } from "../dom.js";

const place = (value) => (value ? value.address || `${value.position.latitude.toFixed(4)}, ${value.position.longitude.toFixed(4)}` : "");

export async function show(main) {
  const taxiBox = h("section", { id: "my-taxi", "aria-labelledby": "taxi-heading" });
  const offers = h("section", { id: "offers", "aria-labelledby": "offers-heading" });
  const rideBox = h("section", { id: "ride", "aria-labelledby": "ride-heading" });
  const connection = h("p", { class: "connection", role: "status" }, "Connecting…");
  main.append(connection, taxiBox, offers, rideBox);
  const live = new Map();

  function drawTaxi(taxi) {
    if (!taxi) return replace(taxiBox, h("h2", { id: "taxi-heading" }, "Your taxi"), h("p", {}, "No taxi is linked to your account."));
    const available = taxi.state !== "TAXI_STATE_UNAVAILABLE";
    replace(taxiBox, h("h2", { id: "taxi-heading" }, `Your taxi ${taxi.code}`),
      h("p", { id: "taxi-state" }, `${enumText(taxi.state, "TAXI_STATE_")}`,
        taxi.zoneId ? ` in zone ${taxi.zoneId}` : "",
        taxi.queuePosition ? `, number ${taxi.queuePosition} in the queue` : "",
        taxi.unavailableReason ? ` (${taxi.unavailableReason})` : ""),
      available
        ? form("Stop taking jobs", [field("Why", { name: "reason", required: true, value: "break" })], "Go unavailable", async (values) => {
          drawTaxi((await api("POST", "/v1/driver/availability", { available: false, reason: values.reason })).taxi);
          announce("You are unavailable");
        }, { id: "unavailable-form", class: "inline" })
        : h("button", { type: "button", id: "go-available", onclick: async () => {
          drawTaxi((await api("POST", "/v1/driver/availability", { available: true })).taxi);
          announce("You are available");
        } }, "Go available"));
  }

  function drawOffers() {
    const items = [...live.values()];
    replace(offers, h("h2", { id: "offers-heading" }, "Offers"), items.length
      ? h("ol", { id: "offer-list", class: "cards" }, items.map((offer) => h("li", { class: "card offer", dataset: { offer: offer.offerId } },
        h("h3", {}, `Pickup: ${place(offer.ride.pickup)}`),
        h("p", {}, `${Math.round(offer.distanceMetres)} m away`, offer.ride.destination ? ` · to ${place(offer.ride.destination)}` : "",
          ` · ${offer.ride.passengers || 1} passengers`, offer.ride.estimatedFare ? ` · about ${money(offer.ride.estimatedFare)}` : ""),
        h("p", {}, `Answer by ${time(offer.expiresAt)}`),
        h("div", { class: "toolbar" },
          h("button", { type: "button", class: "accept", onclick: () => answer(offer, "accept") }, "Accept"),
          h("button", { type: "button", class: "secondary reject", onclick: () => answer(offer, "reject") }, "Reject")))))
      : h("p", { class: "empty" }, "No offers. They appear here as they come."));
  }

  async function answer(offer, verb) {
    try {
      const result = await api("POST", `/v1/driver/offers/${segment(offer.offerId)}:${verb}`, {});
      live.delete(offer.offerId);
      drawOffers();
      if (result.taxi) drawTaxi(result.taxi);
      if (result.ride) drawRide(result.ride);
      announce(verb === "accept" ? "Ride accepted" : "Offer rejected: your taxi goes to the back of the queue");
    } catch (error) {
      offers.append(failure(error));
    }
  }

  function drawRide(ride) {
    if (!ride || !ride.rideId) return replace(rideBox);
    const path = `/v1/driver/rides/${segment(ride.rideId)}`;
    const step = (verb, label, body = {}) => h("button", { type: "button", onclick: async () => {
      try { drawRide((await api("POST", `${path}:${verb}`, body)).ride); } catch (error) { rideBox.append(failure(error)); }
    } }, label);
    replace(rideBox, h("h2", { id: "ride-heading" }, "Current ride"),
      h("p", {}, `${enumText(ride.state, "RIDE_STATE_")}: ${place(ride.pickup)}`, ride.destination ? ` → ${place(ride.destination)}` : "",
        ride.passengerName ? ` · ${ride.passengerName}` : "", ride.estimatedPickupAt ? ` · pickup by ${time(ride.estimatedPickupAt)}` : ""),
      ride.state === "RIDE_STATE_ALLOCATED" ? step("arrived", "I am at the pickup") : null,
      ride.state === "RIDE_STATE_ARRIVED" ? form("Start the ride", [field("Passenger's code", { name: "code", inputmode: "numeric", required: true })],
        "Start", async (values) => drawRide((await api("POST", `${path}:start`, { passengerCode: values.code })).ride), { id: "start-form", class: "inline" }) : null,
      ride.state === "RIDE_STATE_IN_PROGRESS" ? step("complete", "Complete the ride") : null,
      ride.fare ? h("p", {}, `Fare: ${money(ride.fare)}`) : null);
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
    onState(state) { connection.textContent = state === "open" ? "Live" : "Reconnecting…"; },
    onError(error) { connection.replaceWith(failure(error)); },
    onMessage(event) {
      if (event.offer) {
        live.set(event.offer.offerId, event.offer);
        announce(`New offer: pickup at ${place(event.offer.ride.pickup)}`);
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
