// The European Air Quality Index as telemetry describes it (GET /v1/telemetry/air-quality-index,
// in the app's language): each PM2.5 and PM10 value the service answers carries its band, which
// colours it on the maps; the other measures keep a colour scale of their own. The legend lists
// the bands with the concentrations each spans for the measure shown and the EEA's health advice.

import { publicApi } from "./api.js";
import { h, replace, dateTime } from "./dom.js";
import { t, number, language } from "./i18n.js";
import { valueColour } from "./maps.js";
import { measureName } from "./measures.js";

const cache = new Map();

/** The index's bands, good first: [{band, name, colour, advice, sensitiveAdvice, ranges}]. */
export async function airQualityIndex() {
  const key = language();
  if (!cache.has(key)) {
    cache.set(key, publicApi("GET", "/v1/telemetry/air-quality-index").then((answer) => answer.bands || [])
      .catch((error) => { cache.delete(key); throw error; }));
  }
  return cache.get(key);
}

/** Whether the index bands `measure` ("MEASURE_PM10"). */
export const banded = (bands, measure) => bands.some((band) => (band.ranges || []).some((range) => range.measure === measure));

/** The colour of a value: its band's when it has one, else the measure's own scale. */
export function colourOf(bands, value, band, scale) {
  const found = band && bands.find((candidate) => candidate.band === band);
  return found ? found.colour : valueColour(value, scale);
}

/** The band's name of a value (for a tooltip), or "". */
export function bandName(bands, band) {
  const found = band && bands.find((candidate) => candidate.band === band);
  return found ? found.name : "";
}

/** A reading's tooltip: the measure, value and time, and its index band when it has one. */
/** A reading's circle on a map: larger for higher values (MOQA's map), from 4 px to 14 px at the
 * top of the measure's scale. */
export const readingRadius = (value, scale) => 4 + 10 * Math.max(0, Math.min(1, value / scale[1]));

export const readingTip = (name, point, unit, band) =>
  `${t("air.reading", { measure: name, value: number(point.value), unit, time: dateTime(point.time) })}${band ? ` · ${band}` : ""}`;

/** A station's tooltip: its mean over the range, with its band. */
export const stationTip = (reference, unit, band) =>
  `${t("air.stationMean", { station: reference.sensor.stationName, mean: number(reference.mean, 1), unit, count: reference.count })}${band ? ` · ${band}` : ""}`;

/** Draws in `element` the legend for `measure`: the index's bands with their ranges and advice
 * when it covers the measure, else the measure's colour scale from good to bad. */
export function drawLegend(element, bands, [measure, nameKey, scale], unit) {
  const name = measureName(nameKey);
  if (banded(bands, measure)) {
    replace(element,
      h("p", { class: "legend-title" }, t("airIndex.title", { measure: name })),
      h("ul", { class: "bands" }, bands.map((band) => {
        const range = band.ranges.find((candidate) => candidate.measure === measure);
        const span = range.to === undefined
          ? t("airIndex.above", { from: number(range.from || 0), unit })
          : t("airIndex.range", { from: number(range.from || 0), to: number(range.to), unit });
        return h("li", { class: "band", "data-band": band.band, "data-colour": band.colour },
          h("span", { class: "swatch", "aria-hidden": "true" }),
          h("details", {}, h("summary", {}, h("strong", {}, band.name), ` ${span}`),
            h("p", {}, band.advice), h("p", {}, t("airIndex.sensitive"), " ", band.sensitiveAdvice)));
      })),
      h("p", { class: "hint" }, t("airIndex.source")));
  } else {
    replace(element, h("span", {}, `${name}${unit ? ` (${unit})` : ""}: `),
      [0, 0.25, 0.5, 0.75, 1].map((step) => {
        const value = scale[0] + step * (scale[1] - scale[0]);
        return h("span", { class: "swatch step", "data-colour": valueColour(value, scale) }, number(value, 0));
      }),
      h("span", {}, ` ${t("publicAir.scale")}`));
  }
  // Colours are set from script: the page's policy runs no inline style attribute.
  for (const item of element.querySelectorAll("[data-colour]")) {
    const swatch = item.classList.contains("swatch") ? item : item.querySelector(".swatch");
    if (swatch.classList.contains("step")) swatch.style.borderColor = item.dataset.colour;
    else swatch.style.backgroundColor = item.dataset.colour;
  }
}
