// The public air-quality map (no sign-in): the readings of the boards whose owners put them in a
// public campaign, a measure at a time, coloured from good to bad with a legend, beside the
// reference stations' means; the day shown is the one asked for, else the latest public day.

import { publicApi, withQuery } from "../api.js";
import { h, replace, field, form, failure, dateTime } from "../dom.js";
import { baseMapIn, valueColour } from "../maps.js";
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
    const [, nameKey, scale] = measureOf(measureValue);
    const name = measureName(nameKey);
    let answer;
    try {
      answer = await publicApi("GET", withQuery("/v1/telemetry/public-map", { measure: measureValue, ...lombardy }));
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
      window.L.circleMarker(at, {
        radius: 6, color: valueColour(point.value, scale), weight: 1, fillColor: valueColour(point.value, scale), fillOpacity: 0.75,
        className: "public-reading",
      }).bindTooltip(t("air.reading", { measure: name, value: number(point.value), unit, time: dateTime(point.time) })).addTo(layer);
    }
    for (const reference of answer.reference || []) {
      const at = [reference.sensor.latitude, reference.sensor.longitude];
      bounds.push(at);
      window.L.circleMarker(at, {
        radius: 11, color: colours.reference, weight: 4, fillColor: valueColour(reference.mean, scale), fillOpacity: 0.9,
        className: "reference-station",
      }).bindTooltip(t("air.stationMean", { station: reference.sensor.stationName, mean: number(reference.mean, 1), unit, count: reference.count })).addTo(layer);
    }
    if (bounds.length) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    const count = (answer.points || []).length;
    replace(summary, count
      ? t("publicAir.summary", { count, measure: name, from: dateTime(answer.from), to: dateTime(answer.to) })
      : t("publicAir.none", { measure: name }));
    replace(legend, h("span", {}, `${name}${unit ? ` (${unit})` : ""}: `),
      [0, 0.25, 0.5, 0.75, 1].map((step) => {
        const value = scale[0] + step * (scale[1] - scale[0]);
        return h("span", { class: "swatch", "data-colour": valueColour(value, scale) }, number(value, 0));
      }),
      h("span", {}, ` ${t("publicAir.scale")}`));
    // The swatches' colours are set from script: the policy runs no inline style attribute.
    for (const swatch of legend.querySelectorAll(".swatch")) swatch.style.borderColor = swatch.dataset.colour;
    replace(campaigns, (answer.campaigns || []).length ? t("publicAir.campaigns", { names: answer.campaigns.join(", ") }) : "");
  }

  await draw(query.measure || "MEASURE_PM2_5");
}
