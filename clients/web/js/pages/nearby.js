// Around a point chosen on the map: the deals of shops nearby, places to visit, the nearest
// stations with a walking-directions link, and the route offers from the nearest station.

import { api, withQuery } from "../api.js";
import { h, replace, failure, announce, date, enumText } from "../dom.js";
import { baseMapIn } from "../maps.js";

const metres = (value) => (value >= 1000 ? `${(value / 1000).toFixed(1)} km` : `${Math.round(value)} m`);

export async function show(main, { query }) {
  const mapElement = h("div", { id: "nearby-map", class: "map" });
  const results = h("div", { id: "nearby-results", class: "nearby-grid", "aria-live": "polite" });
  const chosen = h("p", { id: "nearby-point", role: "status" }, "Choose a point on the map (or use the keyboard: the map's + and − zoom, arrows move).");
  const here = h("button", { type: "button", class: "secondary", id: "use-location" }, "Use my location");
  main.append(h("div", { class: "toolbar" }, here), chosen, mapElement, results);

  const start = [Number(query.lat) || 45.4858, Number(query.lon) || 9.2044];
  const map = await baseMapIn(mapElement, "Map: click to choose a point", { center: start, zoom: 14 });
  const layer = window.L.layerGroup().addTo(map);

  async function around(latitude, longitude) {
    history.replaceState(null, "", `#/nearby?lat=${latitude.toFixed(5)}&lon=${longitude.toFixed(5)}`);
    layer.clearLayers();
    window.L.circleMarker([latitude, longitude], { radius: 8, color: "#0b5394", weight: 3, fillColor: "#fff", fillOpacity: 1, className: "chosen-point" }).addTo(layer);
    replace(chosen, `Around ${latitude.toFixed(4)}, ${longitude.toFixed(4)}`);
    const point = { latitude, longitude };
    try {
      const [deals, places, stations] = await Promise.all([
        api("GET", withQuery("/v1/nearby/deals", { ...point, radius_metres: 1500 })),
        api("GET", withQuery("/v1/nearby/places", { ...point, radius_metres: 1500 })),
        api("GET", withQuery("/v1/nearby/stations", { ...point, count: 3 })),
      ]);
      const nearest = (stations.stations || [])[0];
      const offers = nearest ? await api("GET", withQuery("/v1/route-offers", { station_id: nearest.station.stationId })) : { offers: [] };
      for (const entry of deals.deals || []) {
        window.L.circleMarker([entry.deal.latitude, entry.deal.longitude], { radius: 7, color: "#9a6700", fillColor: "#fb8c00", fillOpacity: 0.9, className: "deal" })
          .bindTooltip(`${entry.deal.shopName}: ${entry.deal.discountPercent}% off`).addTo(layer);
      }
      for (const entry of places.places || []) {
        window.L.circleMarker([entry.place.latitude, entry.place.longitude], { radius: 6, color: "#8250df", fillColor: "#8250df", fillOpacity: 0.8, className: "place" })
          .bindTooltip(entry.place.name).addTo(layer);
      }
      for (const entry of stations.stations || []) {
        window.L.circleMarker([entry.station.latitude, entry.station.longitude], { radius: 8, color: "#0b5394", fillColor: "#0b5394", fillOpacity: 0.9, className: "station" })
          .bindTooltip(entry.station.name).addTo(layer);
      }
      replace(results,
        h("section", {}, h("h2", {}, "Nearest stations"), h("ol", { id: "nearest-stations" }, (stations.stations || []).map((entry) => h("li", {},
          h("a", { href: `#/board/${encodeURIComponent(entry.station.stationId)}` }, entry.station.name),
          ` — ${metres(entry.distanceMetres)}, ${entry.walkingMinutes} min on foot · `,
          h("a", { href: entry.directionsUrl, target: "_blank", rel: "noopener noreferrer" }, "Directions"))))),
        h("section", {}, h("h2", {}, "Deals nearby"), (deals.deals || []).length
          ? h("ul", { id: "nearby-deals" }, deals.deals.map((entry) => h("li", {},
            h("strong", {}, `${entry.deal.discountPercent}% off`), ` at ${entry.deal.shopName} (${metres(entry.distanceMetres)}): ${entry.deal.description}`,
            entry.deal.validUntil ? `, until ${date(entry.deal.validUntil)}` : "")))
          : h("p", { class: "empty" }, "No deals within 1.5 km.")),
        h("section", {}, h("h2", {}, "Places to visit"), (places.places || []).length
          ? h("ul", { id: "nearby-places" }, places.places.map((entry) => h("li", {},
            `${entry.place.name} (${enumText(entry.place.category, "PLACE_CATEGORY_")}, ${metres(entry.distanceMetres)})`)))
          : h("p", { class: "empty" }, "No places within 1.5 km.")),
        h("section", {}, h("h2", {}, nearest ? `Offers from ${nearest.station.name}` : "Route offers"), (offers.offers || []).length
          ? h("ul", { id: "route-offers" }, offers.offers.map((offer) => h("li", {},
            h("strong", {}, `${offer.discountPercent}% off`), ` ${offer.title}: ${offer.originStationName} → ${offer.destinationStationName}`,
            offer.line ? ` (${offer.line})` : "", offer.conditions ? `. ${offer.conditions}` : "")))
          : h("p", { class: "empty" }, "No route offers from here.")));
      announce(`${(deals.deals || []).length} deals, ${(places.places || []).length} places, nearest station ${nearest ? nearest.station.name : "none"}`);
    } catch (error) {
      replace(results, failure(error));
    }
  }

  map.on("click", (event) => around(event.latlng.lat, event.latlng.lng));
  here.addEventListener("click", () => {
    if (!navigator.geolocation) return announce("This browser cannot tell where you are.");
    navigator.geolocation.getCurrentPosition(
      (position) => { map.setView([position.coords.latitude, position.coords.longitude], 15); around(position.coords.latitude, position.coords.longitude); },
      (error) => announce(`Your location is not available: ${error.message}`));
  });
  await around(start[0], start[1]);
}
