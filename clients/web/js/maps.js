// Maps with Debian's Leaflet (the global `L`), drawn over the base map the project ships
// (data/base-map.geojson: Milan's taxi zones, the demo railway lines and stations; no tile
// server is reachable). Markers are vector circles: no images, nothing from elsewhere.

import { t } from "./i18n.js";

let baseMap = null;

async function baseFeatures() {
  baseMap = baseMap || fetch("/app/data/base-map.geojson").then((response) => {
    if (!response.ok) throw new Error(t("map.notLoaded", { status: response.status }));
    return response.json();
  });
  return baseMap;
}

/** A map in `element` over the base map, centred on Milan (or fitted to the taxi zones);
 * `label` names it for screen readers. */
export async function baseMapIn(element, label, { center = [45.4642, 9.19], zoom = 12, fitZones = false } = {}) {
  element.setAttribute("role", "region");
  element.setAttribute("aria-label", label);
  const map = window.L.map(element, { center, zoom, zoomSnap: 0.5, attributionControl: true });
  map.attributionControl.setPrefix(false);
  map.attributionControl.addAttribution(t("map.attribution"));
  const features = await baseFeatures();
  window.L.geoJSON(features, {
    interactive: false,
    style: (feature) => (feature.properties.kind === "zone"
      ? { color: "#8c959f", weight: 1, fillColor: "#eaeef2", fillOpacity: 0.6 }
      : { color: "#57606a", weight: 2, dashArray: "6 4" }),
    pointToLayer: (feature, at) => window.L.circleMarker(at, { radius: 3, color: "#24292f", weight: 1, fillColor: "#fff", fillOpacity: 1 }),
  }).addTo(map);
  window.L.geoJSON(features, {
    filter: (feature) => feature.properties.kind === "zone",
    style: { stroke: false, fill: false },
    onEachFeature: (feature, layer) => layer.bindTooltip(feature.properties.id, { permanent: true, direction: "center", className: "zone-label" }),
  }).addTo(map);
  if (fitZones) {
    const zones = window.L.geoJSON({ type: "FeatureCollection", features: features.features.filter((feature) => feature.properties.kind === "zone") });
    map.fitBounds(zones.getBounds(), { padding: [8, 8] });
  }
  // A map drawn while its box was still being laid out measures itself again once shown.
  setTimeout(() => map.invalidateSize(), 0);
  return map;
}

/** A colour from green through yellow to red for `value` on the scale `[good, bad]`. */
export function valueColour(value, [good, bad]) {
  const t = Math.max(0, Math.min(1, (value - good) / (bad - good)));
  const hue = 120 * (1 - t);
  return `hsl(${hue.toFixed(0)}, 75%, 42%)`;
}
