// Air quality (MOQA): the map of a measure's readings from the user's boards, circles sized and
// coloured by value, with the reference stations' means beside them; the chart of the series
// with the nearest reference station's series overlaid (the boards' blue line against the
// station's red one); the quartile table; and the boards, with uploading a readings file.

import { api, deviceApi, withQuery, segment } from "../api.js";
import { h, replace, field, form, failure, announce, dateTime, time, fromZonedInput, toZonedInput } from "../dom.js";
import { baseMapIn, valueColour } from "../maps.js";
import { chart, colours } from "../charts.js";
import { parseReadings } from "../readings-file.js";

/** The measures, their names and the values from "good" to "bad" the colours span. */
const measures = [
  ["MEASURE_PM2_5", "PM2.5", [10, 50]], ["MEASURE_PM10", "PM10", [20, 100]], ["MEASURE_PM1", "PM1", [10, 50]],
  ["MEASURE_PM4", "PM4", [15, 75]], ["MEASURE_PM0_5", "PM0.5", [10, 50]], ["MEASURE_TEMPERATURE", "Temperature", [0, 35]],
  ["MEASURE_HUMIDITY", "Humidity", [30, 90]], ["MEASURE_PRESSURE", "Pressure", [990, 1040]], ["MEASURE_TVOC", "TVOC", [0, 500]],
  ["MEASURE_ECO2", "eCO₂", [400, 2000]],
];
const milan = { south: 45.3, west: 8.95, north: 45.65, east: 9.45 };

export async function show(main, { query }) {
  const devices = (await api("GET", "/v1/telemetry/devices")).devices || [];
  const mine = devices.filter((device) => device.mine);
  // Open on the day of the newest reading of the measure shown (else of any), from the user's boards.
  const shownMeasure = query.measure || "MEASURE_PM2_5";
  let end = null;
  let endOfMeasure = null;
  const latests = await Promise.all(mine.slice(0, 5).map((device) =>
    api("GET", `/v1/telemetry/devices/${segment(device.id)}/latest`).catch(() => ({ values: [] }))));
  for (const latest of latests) {
    for (const value of latest.values || []) {
      if (!value.time) continue;
      const time = new Date(value.time);
      if (!end || time > end) end = time;
      if (value.measure === shownMeasure && (!endOfMeasure || time > endOfMeasure)) endOfMeasure = time;
    }
  }
  end = endOfMeasure || end || new Date();
  if (query.to) end = new Date(query.to);
  const start = query.from ? new Date(query.from) : new Date(end.getTime() - 24 * 3600_000);
  end = new Date(end.getTime() + 60_000);

  const mapElement = h("div", { id: "air-map", class: "map" });
  const chartCanvas = h("canvas", { id: "air-chart", role: "img", "aria-label": "The boards' series against the reference station's" });
  const chartNote = h("p", { id: "air-chart-note", class: "hint" });
  const table = h("div", { id: "air-statistics" });
  const summary = h("p", { id: "air-summary", role: "status" });
  const deviceSection = h("section", { id: "devices", "aria-labelledby": "devices-heading" });

  const controls = form("Readings", [
    field("Measure", { name: "measure", options: measures.map(([value, name]) => [value, name]), value: shownMeasure }),
    field("From", { name: "from", type: "datetime-local", value: toZonedInput(start), required: true }),
    field("To", { name: "to", type: "datetime-local", value: toZonedInput(end), required: true }),
  ], "Show", (values) => draw(values), { id: "air-form", class: "inline" });
  main.append(controls, summary,
    h("div", { class: "air-grid" },
      h("section", { "aria-labelledby": "map-heading" }, h("h2", { id: "map-heading" }, "Map"), mapElement,
        h("p", { class: "hint" }, "Circles: your boards' readings, larger and redder for higher values. Ringed in red: the reference stations' mean.")),
      h("section", { "aria-labelledby": "chart-heading" }, h("h2", { id: "chart-heading" }, "Over time"),
        h("div", { class: "chart-box" }, chartCanvas), chartNote)),
    h("section", { "aria-labelledby": "statistics-heading" }, h("h2", { id: "statistics-heading" }, "Quartiles"), table),
    deviceSection);

  const map = await baseMapIn(mapElement, "Map of the readings and the reference stations");
  const layer = window.L.layerGroup().addTo(map);

  async function draw(values) {
    const measure = values.measure;
    const [, name, scale] = measures.find(([value]) => value === measure);
    const from = fromZonedInput(values.from).toISOString();
    const to = fromZonedInput(values.to).toISOString();
    const range = { measure, from, to };
    const [mapAnswer, statistics, series] = await Promise.all([
      api("GET", withQuery("/v1/telemetry/map", { ...range, ...milan })),
      api("GET", withQuery("/v1/telemetry/statistics", range)),
      api("GET", withQuery("/v1/telemetry/series", { ...range, max_points: 48 })),
    ]);
    const unit = mapAnswer.unit || statistics.unit || "";

    layer.clearLayers();
    const points = mapAnswer.points || [];
    const bounds = [];
    for (const point of points) {
      const at = [point.latitude, point.longitude];
      bounds.push(at);
      window.L.circleMarker(at, {
        radius: 4 + 10 * Math.max(0, Math.min(1, point.value / scale[1])),
        color: valueColour(point.value, scale), weight: 1, fillColor: valueColour(point.value, scale), fillOpacity: 0.7,
        className: "reading",
      }).bindTooltip(`${name} ${point.value} ${unit} at ${dateTime(point.time)}`).addTo(layer);
    }
    for (const reference of mapAnswer.reference || []) {
      const at = [reference.sensor.latitude, reference.sensor.longitude];
      bounds.push(at);
      window.L.circleMarker(at, {
        radius: 11, color: colours.reference, weight: 4, fillColor: valueColour(reference.mean, scale), fillOpacity: 0.9,
        className: "reference-station",
      }).bindTooltip(`${reference.sensor.stationName}: mean ${reference.mean.toFixed(1)} ${unit} (${reference.count} values)`).addTo(layer);
    }
    if (bounds.length) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    replace(summary, `${points.length} readings on the map${mapAnswer.sampled ? ` (sampled from ${mapAnswer.total})` : ""}, `,
      `${(mapAnswer.reference || []).length} reference stations.`);

    replace(table, Number(statistics.count) > 0
      ? h("table", { class: "compact", id: "quartiles" },
        h("caption", {}, `${name} (${unit}), ${statistics.count} readings`),
        h("thead", {}, h("tr", {}, ["Min", "Q1", "Median", "Q3", "Max", "Mean"].map((title) => h("th", { scope: "col" }, title)))),
        h("tbody", {}, h("tr", {}, [statistics.min, statistics.q1, statistics.median, statistics.q3, statistics.max, statistics.mean]
          .map((value) => h("td", {}, Number(value || 0).toFixed(1))))))
      : h("p", { class: "empty" }, "No readings in this range."));

    // The nearest reference station measuring the same, near the readings' middle.
    const centre = points.length
      ? [points.reduce((sum, point) => sum + point.latitude, 0) / points.length, points.reduce((sum, point) => sum + point.longitude, 0) / points.length]
      : [45.4642, 9.19];
    const nearby = await api("GET", withQuery("/v1/telemetry/reference/sensors", { latitude: centre[0], longitude: centre[1], radius_metres: 30000, measure }))
      .catch(() => ({ sensors: [] }));
    const sensor = (nearby.sensors || []).find((candidate) => !candidate.sensor.historical) || (nearby.sensors || [])[0];
    const mineLine = (series.points || []).map((point) => ({ x: Date.parse(point.start), y: point.mean }));
    let referenceLine = [];
    if (sensor) {
      const compared = await api("GET", withQuery("/v1/telemetry/reference/compare", { ...range, sensor_id: sensor.sensor.sensorId, max_points: 48 }));
      referenceLine = (compared.points || []).filter((point) => point.reference !== undefined).map((point) => ({ x: Date.parse(point.start), y: point.reference }));
      const station = `${sensor.sensor.stationName} (${(sensor.distanceMetres / 1000).toFixed(1)} km away)`;
      replace(chartNote, referenceLine.length ? `Red: ${station}` : `${station} has no values in this range`,
        compared.correlation !== undefined ? `; correlation with your boards r = ${compared.correlation.toFixed(2)}` : "", ".");
    } else {
      replace(chartNote, "No reference station measures this nearby.");
    }
    if (!mineLine.length && !referenceLine.length) {
      const existing = window.Chart.getChart(chartCanvas);
      if (existing) existing.destroy();
      replace(chartNote, "No readings of this measure in this range.");
      chartCanvas.dataset.points = "0";
      chartCanvas.dataset.referencePoints = "0";
      return;
    }
    const instants = [...mineLine, ...referenceLine].map((point) => point.x);
    const spansDays = Math.max(...instants) - Math.min(...instants) > 20 * 3600_000;
    chart(chartCanvas, {
      type: "line",
      data: {
        datasets: [
          { label: `Your boards (${name})`, data: mineLine, borderColor: colours.moqa, backgroundColor: colours.moqa, pointRadius: 2 },
          ...(referenceLine.length ? [{ label: sensor.sensor.stationName, data: referenceLine, borderColor: colours.reference, backgroundColor: colours.reference, pointRadius: 2 }] : []),
        ],
      },
      options: {
        parsing: false,
        scales: {
          x: { type: "linear", ticks: { callback: (value) => (spansDays ? dateTime : time)(new Date(value).toISOString()) } },
          y: { title: { display: true, text: unit } },
        },
      },
    });
    chartCanvas.dataset.points = String(mineLine.length);
    chartCanvas.dataset.referencePoints = String(referenceLine.length);
  }

  function drawDevices(list, token) {
    replace(deviceSection, h("h2", { id: "devices-heading" }, "Your boards"),
      h("ul", { id: "device-list" }, list.filter((device) => device.mine).map((device) =>
        h("li", {}, `${device.name}`, device.hasToken ? "" : " (token revoked)"))),
      token ? h("p", { class: "token", role: "status" }, "The new board's token (shown once; keep it on the board): ", h("code", { id: "new-token" }, token)) : null,
      form("Add a board", [field("Name", { name: "name", required: true, placeholder: "Bike board" })], "Add the board", async (values) => {
        const added = await api("POST", "/v1/telemetry/devices", { name: values.name });
        announce(`${values.name} added`);
        drawDevices((await api("GET", "/v1/telemetry/devices")).devices || [], added.token);
      }, { id: "device-form", class: "inline" }),
      form("Upload readings", [
        h("div", { class: "field" }, h("label", { for: "readings-file" }, "Readings file (CSV or JSON lines)"),
          h("input", { id: "readings-file", name: "file", type: "file", accept: ".csv,.json,.jsonl,text/csv", required: true })),
        field("Board's token", { name: "token", type: "password", required: true, autocomplete: "off", value: token || "" }),
      ], "Upload", async (values, element) => {
        const file = element.querySelector("#readings-file").files[0];
        if (!file) throw new Error("choose a file first");
        const { readings, problems } = parseReadings(await file.text());
        let stored = 0; let duplicates = 0; const rejected = [];
        for (let index = 0; index < readings.length; index += 1000) {
          const answer = await deviceApi("POST", "/v1/telemetry/readings:upload", { readings: readings.slice(index, index + 1000) }, values.token);
          stored += answer.stored || 0;
          duplicates += answer.duplicates || 0;
          for (const refusal of answer.rejected || []) rejected.push(`reading ${index + refusal.index + 1}: ${refusal.reason}`);
        }
        const report = `Uploaded ${readings.length} readings: ${stored} stored, ${duplicates} already stored, ${rejected.length + problems.length} refused.`;
        element.querySelector(".upload-report")?.remove();
        element.append(h("div", { class: "upload-report", role: "status" }, h("p", {}, report),
          [...problems, ...rejected].length ? h("ul", {}, [...problems, ...rejected].slice(0, 20).map((line) => h("li", {}, line))) : null));
        announce(report);
        await draw(Object.fromEntries(new FormData(controls).entries()));
      }, { id: "upload-form", class: "inline" }));
  }

  drawDevices(devices);
  try {
    await draw(Object.fromEntries(new FormData(controls).entries()));
  } catch (error) {
    summary.replaceWith(failure(error));
  }
}
