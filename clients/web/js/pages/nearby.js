// Around a point chosen on the map: the deals of shops nearby, places to visit, the nearest
// stations with a walking-directions link, and the route offers from the nearest station.

import { api, withQuery } from "../api.js";
import { h, replace, failure, announce, date, enumText } from "../dom.js";
import { baseMapIn } from "../maps.js";
import { t, number } from "../i18n.js";
import { session } from "../session.js";
import { consented, setConsent, shareWhileOpen } from "../location.js";

const metres = (value) => (value >= 1000 ? `${number(value / 1000, 1)} km` : `${Math.round(value)} m`);

export async function show(main, { query }) {
  const mapElement = h("div", { id: "nearby-map", class: "map" });
  const results = h("div", { id: "nearby-results", class: "nearby-grid", "aria-live": "polite" });
  const chosen = h("p", { id: "nearby-point", role: "status" }, t("nearby.choose"));
  const here = h("button", { type: "button", class: "secondary", id: "use-location" }, t("nearby.useLocation"));
  // Signed in: the position can follow the device while this page is open, once the person says so.
  const share = h("input", { type: "checkbox", id: "share-location", checked: consented() });
  const welcome = h("section", { id: "welcome", "aria-live": "polite" });
  main.append(h("div", { class: "toolbar" }, here,
    session.user ? h("label", { class: "check", for: "share-location" }, share, ` ${t("location.share")}`) : null),
  welcome, chosen, mapElement, results);

  const start = [Number(query.lat) || 45.4858, Number(query.lon) || 9.2044];
  const map = await baseMapIn(mapElement, t("nearby.mapLabel"), { center: start, zoom: 14 });
  const layer = window.L.layerGroup().addTo(map);

  async function around(latitude, longitude) {
    history.replaceState(null, "", `#/nearby?lat=${latitude.toFixed(5)}&lon=${longitude.toFixed(5)}`);
    layer.clearLayers();
    window.L.circleMarker([latitude, longitude], { radius: 8, color: "#0b5394", weight: 3, fillColor: "#fff", fillOpacity: 1, className: "chosen-point" }).addTo(layer);
    replace(chosen, t("nearby.around", { point: `${number(latitude, 4)}, ${number(longitude, 4)}` }));
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
          .bindTooltip(`${entry.deal.shopName}: ${t("nearby.off", { percent: entry.deal.discountPercent })}`).addTo(layer);
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
        h("section", {}, h("h2", {}, t("nearby.stations")), h("ol", { id: "nearest-stations" }, (stations.stations || []).map((entry) => h("li", {},
          h("a", { href: `#/board/${encodeURIComponent(entry.station.stationId)}` }, entry.station.name),
          ` — ${t("nearby.walk", { distance: metres(entry.distanceMetres), count: entry.walkingMinutes })} · `,
          h("a", { href: entry.directionsUrl, target: "_blank", rel: "noopener noreferrer" }, t("nearby.directions")))))),
        h("section", {}, h("h2", {}, t("nearby.deals")), (deals.deals || []).length
          ? h("ul", { id: "nearby-deals" }, deals.deals.map((entry) => h("li", {},
            h("strong", {}, t("nearby.off", { percent: entry.deal.discountPercent })), ` ${t("nearby.at", { shop: entry.deal.shopName, distance: metres(entry.distanceMetres) })}: ${entry.deal.description}`,
            entry.deal.validUntil ? `, ${t("nearby.until", { date: date(entry.deal.validUntil) })}` : "")))
          : h("p", { class: "empty" }, t("nearby.noDeals"))),
        h("section", {}, h("h2", {}, t("nearby.places")), (places.places || []).length
          ? h("ul", { id: "nearby-places" }, places.places.map((entry) => h("li", {},
            `${entry.place.name} (${enumText(entry.place.category)}, ${metres(entry.distanceMetres)})`)))
          : h("p", { class: "empty" }, t("nearby.noPlaces"))),
        h("section", {}, h("h2", {}, nearest ? t("nearby.offersFrom", { station: nearest.station.name }) : t("nearby.offers")), (offers.offers || []).length
          ? h("ul", { id: "route-offers" }, offers.offers.map((offer) => h("li", {},
            h("strong", {}, t("nearby.off", { percent: offer.discountPercent })), ` ${offer.title}: ${offer.originStationName}${offer.destinationStationName ? ` → ${offer.destinationStationName}` : ""}`,
            offer.line ? ` (${offer.line})` : "", offer.conditions ? `. ${offer.conditions}` : "")))
          : h("p", { class: "empty" }, t("nearby.noOffers"))));
      announce(t("nearby.found", { deals: (deals.deals || []).length, places: (places.places || []).length, station: nearest ? nearest.station.name : "–" }));
    } catch (error) {
      replace(results, failure(error));
    }
  }

  map.on("click", (event) => around(event.latlng.lat, event.latlng.lng));
  here.addEventListener("click", () => {
    if (!navigator.geolocation) return announce(t("nearby.noGeolocation"));
    navigator.geolocation.getCurrentPosition(
      (position) => { map.setView([position.coords.latitude, position.coords.longitude], 15); around(position.coords.latitude, position.coords.longitude); },
      (error) => announce(t("nearby.locationFailed", { reason: error.message })));
  });
  let stopSharing = () => {};
  const startSharing = () => {
    stopSharing = shareWhileOpen((answer, point) => {
      map.setView([point.latitude, point.longitude], 15);
      around(point.latitude, point.longitude);
      drawWelcome(answer);
    });
  };
  share.addEventListener("change", () => {
    setConsent(share.checked);
    if (share.checked) startSharing();
  });
  const consentChanged = (event) => { share.checked = event.detail; };
  window.addEventListener("binario:location-consent", consentChanged);
  if (share.checked) startSharing();
  await around(start[0], start[1]);
  return () => { stopSharing(); window.removeEventListener("binario:location-consent", consentChanged); };

  /** What the report's answer brings: the station welcome, with the places to visit near it. */
  function drawWelcome(answer) {
    if (!answer.welcome) return;
    replace(welcome, h("div", { class: "notice welcome" },
      h("p", {}, h("strong", {}, answer.welcome.message)),
      (answer.places || []).length ? h("p", {}, t("location.placesToVisit"), " ",
        answer.places.slice(0, 3).map((entry) => `${entry.place.name} (${metres(entry.distanceMetres)})`).join(", ")) : null));
  }
}
