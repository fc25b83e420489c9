// Maps with Debian's Leaflet (the global `L`): on the tile server the deployment names
// (`--map-tiles`, read from /app/config.json, with its attribution), and always with the base map
// the project ships on top (data/base-map.geojson: Milan's taxi zones, the demo railway lines and
// stations), which is the whole map when no tile server is set. Markers are vector circles.

import { t } from "./i18n.js";
import { leaflet } from "./libraries.js";

let baseMap = null;
let config = null;

/** What the deployment tells the app: `{mapTiles: {url, attribution}}` or `{}`. */
function deployment() {
  config = config || fetch("/app/config.json").then((response) => (response.ok ? response.json() : {})).catch(() => ({}));
  return config;
}

/** Text for Leaflet's attribution, which it puts in the page as HTML. */
const escaped = (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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
  await leaflet();
  element.setAttribute("role", "region");
  element.setAttribute("aria-label", label);
  const map = window.L.map(element, { center, zoom, zoomSnap: 0.5, attributionControl: true });
  map.attributionControl.setPrefix(false);
  const [features, { mapTiles }] = await Promise.all([baseFeatures(), deployment()]);
  if (mapTiles) {
    element.classList.add("tiled");
    window.L.tileLayer(mapTiles.url, { attribution: escaped(mapTiles.attribution), maxZoom: 19 }).addTo(map);
  } else {
    map.attributionControl.addAttribution(t("map.attribution"));
  }
  window.L.geoJSON(features, {
    interactive: false,
    // Over real tiles the zones are outlines only; alone they are the land.
    style: (feature) => (feature.properties.kind === "zone"
      ? { color: "#8c959f", weight: 1, fillColor: "#eaeef2", fillOpacity: mapTiles ? 0 : 0.6 }
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
