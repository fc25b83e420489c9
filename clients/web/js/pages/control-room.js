// The taxi company's control room: the alerts not acknowledged yet, every zone's queue (head
// first), the requests waiting for a taxi and the rides under way, and where each taxi is, moving
// as it reports, updated live from the monitor stream.

import { api, segment } from "../api.js";
import { openStream } from "../events.js";
import { h, replace, failure, announce, time, enumText } from "../dom.js";
import { baseMapIn } from "../maps.js";
import { t, number } from "../i18n.js";

const stateColours = {
  TAXI_STATE_WAITING: "#1a7f37", TAXI_STATE_OFFERED: "#fb8c00", TAXI_STATE_BUSY: "#0969da", TAXI_STATE_UNAVAILABLE: "#8c959f",
};
const address = (place) => (place ? place.address || `${number(place.position.latitude, 4)}, ${number(place.position.longitude, 4)}` : "");

export async function show(main) {
  const connection = h("p", { class: "connection", role: "status" }, t("board.connecting"));
  const mapElement = h("div", { id: "control-map", class: "map" });
  const zones = h("div", { id: "zones", class: "cards zones" });
  const others = h("section", { id: "other-taxis" });
  const alerts = h("section", { id: "alerts", "aria-labelledby": "alerts-heading", "aria-live": "polite" });
  main.append(connection, alerts, mapElement, h("p", { class: "hint" }, t("control.legend")),
    h("h2", {}, t("control.zones")), zones, others);

  function drawAlerts(open) {
    replace(alerts, h("h2", { id: "alerts-heading" }, t("control.alerts")), open.length
      ? h("ul", { class: "cards", id: "alert-list" }, open.map((alert) => h("li", { class: "card alert", dataset: { alert: alert.alertId, kind: alert.kind } },
        h("h3", {}, alert.title), h("p", {}, alert.body), h("p", { class: "hint" }, t("control.raisedAt", { time: time(alert.raisedAt) })),
        h("button", { type: "button", class: "secondary acknowledge", onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            await api("POST", `/v1/admin/taxi-alerts/${segment(alert.alertId)}:acknowledge`, {});
            announce(t("control.acknowledged"));
          } catch (error) {
            alerts.append(failure(error));
          }
        } }, t("control.acknowledge")))))
      : h("p", { class: "empty" }, t("control.noAlerts")));
  }
  const map = await baseMapIn(mapElement, t("control.mapLabel"), { fitZones: true });
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
      }).bindTooltip(`${taxiLabel(taxi)}: ${enumText(taxi.state)}`).addTo(layer);
    }
    replace(zones, (snapshot.zones || []).map((zone) => h("section", { class: "card zone", dataset: { zone: zone.zoneId }, "aria-label": t("control.zone", { zone: zone.zoneId }) },
      h("h3", {}, `${zone.zoneId} · ${zone.name}`),
      h("h4", {}, t("control.queue")),
      (zone.queue || []).length
        ? h("ol", { class: "queue" }, zone.queue.map((taxi) => h("li", { dataset: { taxi: taxi.code }, class: taxi.state === "TAXI_STATE_OFFERED" ? "offered" : "" },
          taxiLabel(taxi), taxi.state === "TAXI_STATE_OFFERED" ? ` — ${t("control.holding")}` : "")))
        : h("p", { class: "empty" }, t("control.noTaxi")),
      (zone.waiting || []).length ? [h("h4", {}, t("control.waiting")), h("ul", { class: "waiting" }, zone.waiting.map((ride) =>
        h("li", { dataset: { ride: ride.rideId } }, t("control.since", { place: address(ride.pickup), time: time(ride.requestedAt) }))))] : null,
      (zone.inProgress || []).length ? [h("h4", {}, t("control.underWay")), h("ul", { class: "in-progress" }, zone.inProgress.map((ride) =>
        h("li", { dataset: { ride: ride.rideId } }, `${ride.taxiCode}: ${enumText(ride.state)}, ${address(ride.pickup)}`,
          ride.delayed ? h("strong", { class: "status delayed" }, ` ${t("control.late")}`) : null)))] : null)));
    replace(others, h("h2", {}, t("control.others")), (snapshot.otherTaxis || []).length
      ? h("ul", {}, snapshot.otherTaxis.map((taxi) => h("li", { dataset: { taxi: taxi.code } },
        `${taxiLabel(taxi)}: ${enumText(taxi.state)}${taxi.unavailableReason ? ` (${taxi.unavailableReason})` : ""}`)))
      : h("p", { class: "empty" }, t("control.none")));
    drawAlerts(snapshot.alerts || []);
    connection.textContent = t("control.live", { time: time(snapshot.takenAt) });
  }

  const stream = openStream("/v1/admin/taxi-monitor:watch", {
    onState(state) { if (state !== "open") connection.textContent = t("board.reconnecting"); },
    onError(error) { connection.replaceWith(failure(error)); },
    onMessage(message) { draw(message.snapshot); },
  });
  return () => stream.close();
}
