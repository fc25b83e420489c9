// The public air-quality map (no sign-in): the readings of the boards whose owners put them in a
// public campaign, a measure at a time, beside the reference stations' means, PM2.5 and PM10
// coloured by their band of the European Air Quality Index (a legend with its health advice),
// the other measures from good to bad; the day shown is the one asked for, else the latest
// public day.

import { publicApi, withQuery } from "../api.js";
import { h, replace, field, form, failure, dateTime } from "../dom.js";
import { baseMapIn } from "../maps.js";
import { airQualityIndex, colourOf, bandName, drawLegend, readingRadius, readingTip, stationTip } from "../air-index.js";
import { colours } from "../charts.js";
import { t, number } from "../i18n.js";
import { measures, measureName, measure as measureOf } from "../measures.js";

const lombardy = { south: 44.6, west: 8.4, north: 46.7, east: 11.5 };

export async function show(main, { query }) {
  const mapElement = h("div", { id: "public-air-map", class: "map" });
  const summary = h("p", { id: "public-air-summary", role: "status" });
  const legend = h("div", { id: "public-air-legend", class: "legend" });
  const campaigns = h("p", { id: "public-air-campaigns", class: "hint" });
  const controls = form(t("publicAir.title"), [
    field(t("air.measure"), { name: "measure", options: measures.map(([value, name]) => [value, measureName(name)]), value: query.measure || "MEASURE_PM2_5" }),
  ], t("air.show"), (values) => draw(values.measure), { id: "public-air-form", class: "inline" });
  main.append(h("p", {}, t("publicAir.intro")), controls, summary, mapElement, legend, campaigns);

  const map = await baseMapIn(mapElement, t("publicAir.mapLabel"));
  const layer = window.L.layerGroup().addTo(map);

  async function draw(measureValue) {
    const shown = measureOf(measureValue);
    const [, nameKey, scale] = shown;
    const name = measureName(nameKey);
    let answer;
    let bands;
    try {
      [answer, bands] = await Promise.all([
        publicApi("GET", withQuery("/v1/telemetry/public-map", { measure: measureValue, ...lombardy })), airQualityIndex()]);
    } catch (error) {
      replace(summary, failure(error));
      return;
    }
    const unit = answer.unit || "";
    layer.clearLayers();
    const bounds = [];
    for (const point of answer.points || []) {
      const at = [point.latitude, point.longitude];
      bounds.push(at);
      const colour = colourOf(bands, point.value, point.band, scale);
      window.L.circleMarker(at, {
        radius: readingRadius(point.value, scale), color: colours.moqa, weight: 2, fillColor: colour, fillOpacity: 0.85, className: "public-reading",
      }).bindTooltip(readingTip(name, point, unit, bandName(bands, point.band))).addTo(layer);
    }
    for (const reference of answer.reference || []) {
      const at = [reference.sensor.latitude, reference.sensor.longitude];
      bounds.push(at);
      window.L.circleMarker(at, {
        radius: 11, color: colours.reference, weight: 4, fillColor: colourOf(bands, reference.mean, reference.band, scale), fillOpacity: 0.9,
        className: "reference-station",
      }).bindTooltip(stationTip(reference, unit, bandName(bands, reference.band))).addTo(layer);
    }
    if (bounds.length) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    const count = (answer.points || []).length;
    replace(summary, count
      ? t("publicAir.summary", { count, measure: name, from: dateTime(answer.from), to: dateTime(answer.to) })
      : t("publicAir.none", { measure: name }));
    drawLegend(legend, bands, shown, unit);
    replace(campaigns, (answer.campaigns || []).length ? t("publicAir.campaigns", { names: answer.campaigns.join(", ") }) : "");
  }

  await draw(query.measure || "MEASURE_PM2_5");
}
