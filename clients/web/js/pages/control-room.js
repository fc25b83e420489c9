// The taxi company's control room: every zone's queue (head first), the requests waiting for a
// taxi and the rides under way, and where each taxi is, updated live from the monitor stream.

import { openStream } from "../events.js";
import { h, replace, failure, time, enumText } from "../dom.js";
import { baseMapIn } from "../maps.js";

const stateColours = {
  TAXI_STATE_WAITING: "#1a7f37", TAXI_STATE_OFFERED: "#fb8c00", TAXI_STATE_BUSY: "#0969da", TAXI_STATE_UNAVAILABLE: "#8c959f",
};
const address = (place) => (place ? place.address || `${place.position.latitude.toFixed(4)}, ${place.position.longitude.toFixed(4)}` : "");

export async function show(main) {
  const connection = h("p", { class: "connection", role: "status" }, "Connecting…");
  const mapElement = h("div", { id: "control-map", class: "map" });
  const zones = h("div", { id: "zones", class: "cards zones" });
  const others = h("section", { id: "other-taxis" });
  main.append(connection, mapElement, h("p", { class: "hint" }, "Green: waiting in a queue; orange: holding an offer; blue: on a ride; grey: unavailable."),
    h("h2", {}, "Zones"), zones, others);
  const map = await baseMapIn(mapElement, "Map of the taxis", { fitZones: true });
  const layer = window.L.layerGroup().addTo(map);

  function taxiLabel(taxi) {
    return `${taxi.code}${taxi.driverName ? ` (${taxi.driverName})` : ""}`;
  }

  function draw(snapshot) {
    layer.clearLayers();
    const all = [...(snapshot.zones || []).flatMap((zone) => zone.queue || []), ...(snapshot.otherTaxis || [])];
    for (const taxi of all) {
      if (!taxi.position) continue;
      window.L.circleMarker([taxi.position.latitude, taxi.position.longitude], {
        radius: 7, color: "#24292f", weight: 1, fillColor: stateColours[taxi.state] || "#24292f", fillOpacity: 0.95, className: "taxi",
      }).bindTooltip(`${taxiLabel(taxi)}: ${enumText(taxi.state, "TAXI_STATE_")}`).addTo(layer);
    }
    replace(zones, (snapshot.zones || []).map((zone) => h("section", { class: "card zone", dataset: { zone: zone.zoneId }, "aria-label": `Zone ${zone.zoneId}` },
      h("h3", {}, `${zone.zoneId} · ${zone.name}`),
      h("h4", {}, "Queue"),
      (zone.queue || []).length
        ? h("ol", { class: "queue" }, zone.queue.map((taxi) => h("li", { dataset: { taxi: taxi.code }, class: taxi.state === "TAXI_STATE_OFFERED" ? "offered" : "" },
          taxiLabel(taxi), taxi.state === "TAXI_STATE_OFFERED" ? " — holding an offer" : "")))
        : h("p", { class: "empty" }, "No taxi waiting."),
      (zone.waiting || []).length ? [h("h4", {}, "Waiting for a taxi"), h("ul", { class: "waiting" }, zone.waiting.map((ride) =>
        h("li", { dataset: { ride: ride.rideId } }, `${address(ride.pickup)} since ${time(ride.requestedAt)}`)))] : null,
      (zone.inProgress || []).length ? [h("h4", {}, "Rides under way"), h("ul", { class: "in-progress" }, zone.inProgress.map((ride) =>
        h("li", { dataset: { ride: ride.rideId } }, `${ride.taxiCode}: ${enumText(ride.state, "RIDE_STATE_")}, ${address(ride.pickup)}`,
          ride.delayed ? h("strong", { class: "status delayed" }, " late") : null)))] : null)));
    replace(others, h("h2", {}, "Other taxis"), (snapshot.otherTaxis || []).length
      ? h("ul", {}, snapshot.otherTaxis.map((taxi) => h("li", { dataset: { taxi: taxi.code } },
        `${taxiLabel(taxi)}: ${enumText(taxi.state, "TAXI_STATE_")}${taxi.unavailableReason ? ` (${taxi.unavailableReason})` : ""}`)))
      : h("p", { class: "empty" }, "None."));
    connection.textContent = `Live · as of ${time(snapshot.takenAt)}`;
  }

  const stream = openStream("/v1/admin/taxi-monitor:watch", {
    onState(state) { if (state !== "open") connection.textContent = "Reconnecting…"; },
    onError(error) { connection.replaceWith(failure(error)); },
    onMessage(message) { draw(message.snapshot); },
  });
  return () => stream.close();
}
