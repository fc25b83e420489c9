// Air quality (MOQA): the filter (any of the eleven measures, any time window, all the user's
// boards or one board they see, the reference station to compare with: the nearest by default,
// any station near the data, or none); the map of the readings, ringed in blue, beside the
// reference stations' means, ringed in red, PM2.5 and PM10 coloured by their band of the European
// Air Quality Index (the other measures from good to bad), fitted to the data wherever it is in
// Lombardy; the chart of the series with the station's series overlaid (the boards' blue line
// against the station's red one); the quartile table; each board's presence and latest values;
// live mode, in which the map, the chart and the latest values follow the boards as they send
// (the live stream, with each board's last-seen time and "offline since"); outliers marked or
// replaced as openSenseMap does; one board calibrated against the station compared with (the US
// EPA's form, with humidity), its corrected line beside the raw one; and the boards, with
// uploading a file.

import { api, deviceApi, withQuery, segment } from "../api.js";
import { openStream } from "../events.js";
import { h, replace, field, form, failure, announce, dateTime, time, fromZonedInput, toZonedInput } from "../dom.js";
import { baseMapIn } from "../maps.js";
import { airQualityIndex, colourOf, bandName, drawLegend, readingRadius, readingTip, stationTip } from "../air-index.js";
import { chart, colours } from "../charts.js";
import { parseReadings } from "../readings-file.js";
import { t, number } from "../i18n.js";
import { session } from "../session.js";
import { measures, measureName, measure as measureOf, readingField } from "../measures.js";
import { chartJs } from "../libraries.js";

/** The box the map asks for: Lombardy and its borders, so boards anywhere in the region show. */
const lombardy = { south: 44.6, west: 8.4, north: 46.7, east: 11.5 };
/** The station picker's choices besides a station: the nearest (the default) and none. */
const NEAREST = "";
const NONE = "none";
/** How many readings before each the outlier option looks at (openSenseMap's default window). */
const OUTLIER_WINDOW = 15;
/** The measures a board can be calibrated in against a station. */
const CALIBRATED = new Set(["MEASURE_PM2_5", "MEASURE_PM10"]);

/** The board picker's options: all the person's own boards, then each board they see. */
const boardOptions = (devices) => [["", t("air.allMyBoards")],
  ...devices.map((device) => [device.id, device.mine ? device.name : t("air.sharedBoard", { name: device.name })])];

export async function show(main, { query }) {
  await chartJs();
  const [listed, settings] = await Promise.all([
    api("GET", "/v1/telemetry/devices"),
    api("GET", "/v1/telemetry/settings").catch(() => ({})),
  ]);
  const devices = listed.devices || [];
  const mine = devices.filter((device) => device.mine);
  // The stations the person picked in the settings, offered first in the station picker.
  const pickedStations = new Set(settings.stationIds || []);
  // Open on the measure asked for, else the person's default, on the day of its newest reading
  // (else of any) from the user's boards.
  const savedMeasure = settings.defaultMeasure && settings.defaultMeasure !== "MEASURE_UNSPECIFIED" ? settings.defaultMeasure : null;
  const shownMeasure = query.measure || savedMeasure || "MEASURE_PM2_5";
  let end = null;
  let endOfMeasure = null;
  const latests = await Promise.all(mine.slice(0, 10).map((device) =>
    api("GET", `/v1/telemetry/devices/${segment(device.id)}/latest`).catch(() => ({ values: [] }))));
  // Each board's presence and latest value of each measure, which live mode keeps current.
  const presence = new Map(devices.map((device) => [device.id, { lastSeen: device.lastSeen, online: Boolean(device.online) }]));
  const latestValues = new Map(mine.slice(0, 10).map((device, index) =>
    [device.id, new Map((latests[index].values || []).map((value) => [value.measure, value]))]));
  const units = new Map(latests.flatMap((latest) => (latest.values || []).map((value) => [value.measure, value.unit])));
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
  const chartCanvas = h("canvas", { id: "air-chart", role: "img", "aria-label": t("air.chartLabel") });
  const chartNote = h("p", { id: "air-chart-note", class: "hint" });
  const calibrationBox = h("div", { id: "air-calibration" });
  const table = h("div", { id: "air-statistics" });
  const legend = h("div", { id: "air-legend", class: "legend" });
  const summary = h("p", { id: "air-summary", role: "status" });
  const deviceSection = h("section", { id: "devices", "aria-labelledby": "devices-heading" });
  const nowList = h("ul", { id: "boards-now" });
  const liveStatus = h("p", { id: "air-live-status", class: "hint", role: "status" });

  const controls = form(t("air.readings"), [
    field(t("air.measure"), { name: "measure", options: measures.map(([value, name]) => [value, measureName(name)]), value: shownMeasure }),
    field(t("journeys.from"), { name: "from", type: "datetime-local", value: toZonedInput(start), required: true }),
    field(t("journeys.to"), { name: "to", type: "datetime-local", value: toZonedInput(end), required: true }),
    field(t("air.boards"), { name: "device", options: boardOptions(devices), value: query.device || "" }),
    field(t("air.station"), { name: "station", options: [[NEAREST, t("air.nearestStation")], [NONE, t("air.noReference")]], value: query.station || NEAREST }),
    field(t("air.outliers"), {
      name: "outliers", value: query.outliers || "",
      options: [["", t("air.outliersOff")], ["mark", t("air.outliersMark")], ["replace", t("air.outliersReplace")]],
    }),
    h("div", { class: "field" }, h("label", { class: "check" },
      h("input", { type: "checkbox", name: "live", value: "on", id: "air-live", checked: query.live === "on" }), ` ${t("air.live")}`)),
  ], t("air.show"), (values) => draw(values), { id: "air-form", class: "inline" });
  const stationPicker = controls.querySelector("[name=station]");
  const boardPicker = controls.querySelector("[name=device]");
  main.append(h("p", {}, h("a", { id: "air-settings-link", href: "#/air-settings" }, t("airSettings.link"))), controls, summary, liveStatus,
    h("section", { "aria-labelledby": "now-heading" }, h("h2", { id: "now-heading" }, t("air.boardsNow")), nowList),
    h("div", { class: "air-grid" },
      h("section", { "aria-labelledby": "map-heading" }, h("h2", { id: "map-heading" }, t("air.map")), mapElement,
        h("p", { class: "hint" }, t("air.mapHint")), legend),
      h("section", { "aria-labelledby": "chart-heading" }, h("h2", { id: "chart-heading" }, t("air.overTime")),
        h("div", { class: "chart-box" }, chartCanvas), chartNote, calibrationBox)),
    h("section", { "aria-labelledby": "statistics-heading" }, h("h2", { id: "statistics-heading" }, t("air.quartiles")), table),
    deviceSection);

  const map = await baseMapIn(mapElement, t("air.mapLabel"));
  const layer = window.L.layerGroup().addTo(map);
  // What the map and chart show now, for live mode to add to.
  let shownNow = null;
  let liveStream = null;
  let liveCount = 0;
  // The boards the person sees, as last listed (a board added here joins them).
  let known = devices;

  async function draw(values) {
    const measure = values.measure;
    const shown = measureOf(measure);
    const [, nameKey, scale] = shown;
    const name = measureName(nameKey);
    const from = fromZonedInput(values.from).toISOString();
    const to = fromZonedInput(values.to).toISOString();
    const range = { measure, from, to, device_id: values.device || undefined };
    const hideReference = values.station === NONE;
    const [mapAnswer, statistics, series, bands] = await Promise.all([
      api("GET", withQuery("/v1/telemetry/map", { ...range, ...lombardy })),
      api("GET", withQuery("/v1/telemetry/statistics", range)),
      api("GET", withQuery("/v1/telemetry/series", {
        ...range, max_points: 48,
        ...(values.outliers ? { outlier_window: OUTLIER_WINDOW, replace_outliers: values.outliers === "replace" } : {}),
      })),
      airQualityIndex(),
    ]);
    const unit = mapAnswer.unit || statistics.unit || "";

    layer.clearLayers();
    const points = mapAnswer.points || [];
    const bounds = [];
    for (const point of points) {
      const at = [point.latitude, point.longitude];
      bounds.push(at);
      window.L.circleMarker(at, {
        radius: readingRadius(point.value, scale),
        color: colours.moqa, weight: 2, fillColor: colourOf(bands, point.value, point.band, scale), fillOpacity: 0.9,
        className: "reading",
      }).bindTooltip(readingTip(name, point, unit, bandName(bands, point.band))).addTo(layer);
    }
    const stations = hideReference ? [] : mapAnswer.reference || [];
    for (const reference of stations) {
      const at = [reference.sensor.latitude, reference.sensor.longitude];
      // Fitted to the boards' readings when there are any: stations far away do not shrink them.
      if (!points.length) bounds.push(at);
      window.L.circleMarker(at, {
        radius: 11, color: colours.reference, weight: 4, fillColor: colourOf(bands, reference.mean, reference.band, scale), fillOpacity: 0.9,
        className: "reference-station",
      }).bindTooltip(stationTip(reference, unit, bandName(bands, reference.band))).addTo(layer);
    }
    if (bounds.length) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
    mapElement.dataset.readings = String(points.length);
    mapElement.dataset.stations = String(stations.length);
    drawLegend(legend, bands, shown, unit);
    const stationsNote = hideReference ? t("air.referenceHidden") : t("air.stations", { count: stations.length });
    shownNow = { measure, name, scale, unit, bands, count: points.length, total: Number(mapAnswer.total || 0), sampled: mapAnswer.sampled, stationsNote };
    if (unit) units.set(measure, unit);
    drawSummary();

    replace(table, Number(statistics.count) > 0
      ? h("table", { class: "compact", id: "quartiles" },
        h("caption", {}, t("air.caption", { measure: name, unit, count: Number(statistics.count) })),
        h("thead", {}, h("tr", {}, ["air.min", "air.q1", "air.median", "air.q3", "air.max", "air.mean"].map((key) => h("th", { scope: "col" }, t(key))))),
        h("tbody", {}, h("tr", {}, [statistics.min, statistics.q1, statistics.median, statistics.q3, statistics.max, statistics.mean]
          .map((value) => h("td", {}, number(Number(value || 0), 1))))))
      : h("p", { class: "empty" }, t("air.noReadings")));

    // The stations measuring the same near the readings' middle, for the picker; the one compared
    // with is the one picked, else the nearest in service.
    const centre = points.length
      ? [points.reduce((sum, point) => sum + point.latitude, 0) / points.length, points.reduce((sum, point) => sum + point.longitude, 0) / points.length]
      : [45.4642, 9.19];
    const near = (await api("GET", withQuery("/v1/telemetry/reference/sensors", { latitude: centre[0], longitude: centre[1], radius_metres: 30000, measure }))
      .catch(() => ({ sensors: [] }))).sensors || [];
    // The picked stations first (those measuring this, however far), then the others near.
    const picked = pickedStations.size
      ? ((await api("GET", withQuery("/v1/telemetry/reference/sensors", { latitude: centre[0], longitude: centre[1], radius_metres: 100000, measure }))
        .catch(() => ({ sensors: [] }))).sensors || []).filter((candidate) => pickedStations.has(candidate.sensor.stationId))
      : [];
    const nearby = [...picked, ...near.filter((candidate) => !pickedStations.has(candidate.sensor.stationId))];
    fillStations(nearby, values.station);
    const sensor = hideReference ? null
      : nearby.find((candidate) => candidate.sensor.sensorId === values.station)
        || near.find((candidate) => !candidate.sensor.historical) || near[0];
    const mineLine = (series.points || []).map((point) => ({ x: Date.parse(point.start), y: point.mean, outliers: Number(point.outliers || 0) }));
    const outliers = mineLine.reduce((sum, point) => sum + point.outliers, 0);
    let referenceLine = [];
    if (hideReference) {
      replace(chartNote, t("air.referenceHidden"));
    } else if (sensor) {
      const compared = await api("GET", withQuery("/v1/telemetry/reference/compare", { ...range, sensor_id: sensor.sensor.sensorId, max_points: 48 }));
      referenceLine = (compared.points || []).filter((point) => point.reference !== undefined).map((point) => ({ x: Date.parse(point.start), y: point.reference }));
      const station = t("air.stationAway", { station: sensor.sensor.stationName, km: number(sensor.distanceMetres / 1000, 1) });
      replace(chartNote, referenceLine.length ? t("air.red", { station }) : t("air.stationEmpty", { station }),
        compared.correlation !== undefined ? `; ${t("air.correlation", { r: number(compared.correlation, 2) })}` : "",
        referenceLine.length && compared.averaging ? `; ${averagingNote(compared.averaging)}` : "", ".");
      chartCanvas.dataset.averaging = compared.averaging || "";
    } else {
      replace(chartNote, t("air.noStation"));
    }
    if (values.outliers) chartNote.append(" ", t(values.outliers === "replace" ? "air.outliersReplaced" : "air.outliersFound", { count: outliers, window: OUTLIER_WINDOW }));
    chartCanvas.dataset.outliers = values.outliers ? String(outliers) : "";
    offerCalibration(values, range, sensor, unit);
    if (!mineLine.length && !referenceLine.length) {
      const existing = window.Chart.getChart(chartCanvas);
      if (existing) existing.destroy();
      replace(chartNote, t("air.noSeries"));
      chartCanvas.dataset.points = "0";
      chartCanvas.dataset.referencePoints = "0";
      return;
    }
    const instants = [...mineLine, ...referenceLine].map((point) => point.x);
    lineChart([
      {
        label: t("air.yourBoardsOf", { measure: name }), data: mineLine, borderColor: colours.moqa, backgroundColor: colours.moqa,
        // A bucket holding outliers is drawn as a larger triangle.
        pointStyle: (context) => (context.raw && context.raw.outliers ? "triangle" : "circle"),
        pointRadius: (context) => (context.raw && context.raw.outliers ? 6 : 2),
      },
      ...(referenceLine.length ? [{ label: sensor.sensor.stationName, data: referenceLine, borderColor: colours.reference, backgroundColor: colours.reference, pointRadius: 2 }] : []),
    ], unit, Math.max(...instants) - Math.min(...instants) > 20 * 3600_000);
    chartCanvas.dataset.points = String(mineLine.length);
    chartCanvas.dataset.referencePoints = String(referenceLine.length);
  }

  /** The chart of `datasets` (points of x: instant in ms, y: value), times as dates when it spans days. */
  function lineChart(datasets, unit, spansDays) {
    return chart(chartCanvas, {
      type: "line",
      data: { datasets },
      options: {
        parsing: false,
        scales: {
          x: { type: "linear", ticks: { callback: (value) => (spansDays ? dateTime : time)(new Date(value).toISOString()) } },
          y: { title: { display: true, text: unit } },
        },
      },
    });
  }

  /** Under the chart, for one board in PM2.5 or PM10 compared with a station: calibrating the
   * board against it over the range shown, the fit's terms and quality, and its corrected line. */
  function offerCalibration(values, range, sensor, unit) {
    delete chartCanvas.dataset.corrected;
    if (!sensor || !CALIBRATED.has(values.measure)) return replace(calibrationBox);
    if (!values.device) return replace(calibrationBox, h("p", { class: "hint" }, t("air.calibrateOneBoard")));
    const button = h("button", { type: "button", id: "air-calibrate", class: "secondary", "data-device": values.device }, t("air.calibrate", { station: sensor.sensor.stationName }));
    const result = h("div", { id: "air-calibration-result", role: "status" });
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const fit = await api("GET", withQuery(`/v1/telemetry/devices/${segment(values.device)}/calibration`, {
          sensor_id: sensor.sensor.sensorId, from: range.from, to: range.to, max_points: 48,
        }));
        const signed = (value, digits) => `${value < 0 ? "−" : "+"} ${number(Math.abs(value), digits)}`;
        replace(result,
          h("p", { id: "air-calibration-fit" }, t("air.calibrationFit", {
            station: sensor.sensor.stationName, slope: number(Number(fit.slope || 0), 3),
            humidity: signed(Number(fit.humidityCoefficient || 0), 3), intercept: signed(Number(fit.intercept || 0), 2), unit,
          })),
          h("p", { class: "hint" }, t("air.calibrationQuality", {
            r2: number(Number(fit.rSquared || 0), 2), rmse: number(Number(fit.rmse || 0), 1), unit, count: Number(fit.pairs || 0),
          }), fit.averaging ? `; ${averagingNote(fit.averaging)}` : "", "."));
        const corrected = (fit.points || []).filter((point) => point.corrected !== undefined)
          .map((point) => ({ x: Date.parse(point.start), y: Number(point.corrected) }));
        const line = window.Chart.getChart(chartCanvas);
        if (line) {
          line.data.datasets = line.data.datasets.filter((dataset) => !dataset.corrected);
          line.data.datasets.push({
            label: t("air.correctedLine"), corrected: true, data: corrected, borderColor: colours.palette[2], backgroundColor: colours.palette[2],
            borderDash: [6, 4], pointRadius: 2,
          });
          line.update("none");
        }
        chartCanvas.dataset.corrected = String(corrected.length);
      } catch (error) {
        replace(result, failure(error));
      } finally {
        button.disabled = false;
      }
    });
    replace(calibrationBox, button, result);
  }

  /** How the station averages the values on the chart, and what they are compared with. */
  function averagingNote(code) {
    if (code === "day") return t("air.averagingDay");
    const running = /^running-(\d+)h$/.exec(code);
    if (running) return t("air.averagingRunning", { hours: running[1] });
    const minutes = /^(\d+)m$/.exec(code);
    return minutes ? t("air.averagingMinutes", { minutes: minutes[1] }) : "";
  }

  /** The station picker's options: the nearest, none, then each station near the data with its
   * network and distance; the choice made stays chosen. */
  function fillStations(nearby, chosen) {
    replace(stationPicker,
      h("option", { value: NEAREST, selected: chosen === NEAREST }, t("air.nearestStation")),
      h("option", { value: NONE, selected: chosen === NONE }, t("air.noReference")),
      nearby.map((candidate) => h("option", { value: candidate.sensor.sensorId, selected: candidate.sensor.sensorId === chosen },
        pickedStations.has(candidate.sensor.stationId) ? "★ " : "",
        t("air.stationChoice", {
          station: candidate.sensor.stationName, network: t(candidate.sensor.network === "weather" ? "air.networkWeather" : "air.networkAirQuality"),
          km: number(candidate.distanceMetres / 1000, 1),
        }))));
  }

  /** A board's campaign: private, or one of the campaigns the person is in (a public one puts
   * its readings on the public map). */
  function campaignPicker(device, campaigns) {
    const picker = h("select", { class: "campaign", "data-device": device.id, "aria-label": t("air.campaignOf", { board: device.name }) },
      h("option", { value: "", selected: !device.campaignId }, t("air.private")),
      campaigns.map((campaign) => h("option", { value: campaign.id, selected: campaign.id === device.campaignId },
        campaign.public ? t("air.publicCampaign", { name: campaign.name }) : campaign.name)));
    picker.addEventListener("change", async () => {
      try {
        await api("POST", `/v1/telemetry/devices/${segment(device.id)}:set-campaign`, { campaignId: picker.value });
        announce(t("air.campaignSet", { board: device.name }));
      } catch (error) {
        announce(error.message);
      }
    });
    return picker;
  }

  async function drawDevices(list, token) {
    const me = session.user ? session.user.userId : "";
    known = list;
    for (const device of list) {
      if (!presence.has(device.id)) presence.set(device.id, { lastSeen: device.lastSeen, online: Boolean(device.online) });
    }
    drawNow();
    // A board added while live joins the stream.
    if (liveStream) followLive();
    // A board just added is offered in the filter at once; the one chosen stays chosen.
    const chosen = boardPicker.value;
    replace(boardPicker, boardOptions(list).map(([value, label]) => h("option", { value, selected: value === chosen }, label)));
    const campaigns = ((await api("GET", "/v1/telemetry/campaigns").catch(() => ({}))).campaigns || [])
      .filter((campaign) => (campaign.memberUserIds || []).includes(me));
    replace(deviceSection, h("h2", { id: "devices-heading" }, t("air.yourBoards")),
      h("ul", { id: "device-list" }, list.filter((device) => device.mine).map((device) =>
        h("li", {}, `${device.name}`, device.hasToken ? "" : ` (${t("air.revoked")})`, " ", campaignPicker(device, campaigns)))),
      form(t("air.newCampaign"), [
        field(t("air.campaignName"), { name: "name", required: true }),
        h("div", { class: "field" }, h("label", { class: "check" }, h("input", { type: "checkbox", name: "public", value: "true" }), ` ${t("air.makePublic")}`)),
      ], t("air.createCampaign"), async (values) => {
        await api("POST", "/v1/telemetry/campaigns", { name: values.name, public: values.public === "true", idempotencyKey: crypto.randomUUID() });
        announce(t("subs.added", { name: values.name }));
        await drawDevices((await api("GET", "/v1/telemetry/devices")).devices || []);
      }, { id: "campaign-form", class: "inline" }),
      token ? h("p", { class: "token", role: "status" }, t("air.newToken"), " ", h("code", { id: "new-token" }, token)) : null,
      form(t("air.addBoard"), [field(t("itinerary.name"), { name: "name", required: true, placeholder: t("air.boardExample") })], t("air.addBoardButton"), async (values) => {
        const added = await api("POST", "/v1/telemetry/devices", { name: values.name, idempotencyKey: crypto.randomUUID() });
        announce(t("subs.added", { name: values.name }));
        await drawDevices((await api("GET", "/v1/telemetry/devices")).devices || [], added.token);
      }, { id: "device-form", class: "inline" }),
      form(t("air.upload"), [
        h("div", { class: "field" }, h("label", { for: "readings-file" }, t("air.file")),
          h("input", { id: "readings-file", name: "file", type: "file", accept: ".csv,.json,.jsonl,text/csv", required: true })),
        field(t("air.token"), { name: "token", type: "password", required: true, value: token || "" }),
      ], t("air.uploadButton"), async (values, element) => {
        const file = element.querySelector("#readings-file").files[0];
        if (!file) throw new Error(t("air.chooseFile"));
        const { readings, problems } = parseReadings(await file.text());
        let stored = 0; let duplicates = 0; const rejected = [];
        for (let index = 0; index < readings.length; index += 1000) {
          const answer = await deviceApi("POST", "/v1/telemetry/readings:upload", { readings: readings.slice(index, index + 1000) }, values.token);
          stored += answer.stored || 0;
          duplicates += answer.duplicates || 0;
          for (const refusal of answer.rejected || []) rejected.push(t("air.refusedReading", { number: index + refusal.index + 1, reason: refusal.reason }));
        }
        const report = t("air.report", { count: readings.length, stored, duplicates, refused: rejected.length + problems.length });
        element.querySelector(".upload-report")?.remove();
        element.append(h("div", { class: "upload-report", role: "status" }, h("p", {}, report),
          [...problems, ...rejected].length ? h("ul", {}, [...problems, ...rejected].slice(0, 20).map((line) => h("li", {}, line))) : null));
        announce(report);
        await draw(Object.fromEntries(new FormData(controls).entries()));
        await refreshBoards();
      }, { id: "upload-form", class: "inline" }));
  }

  /** Each board's presence and latest values read again (after an upload from this page). */
  async function refreshBoards() {
    const listed = (await api("GET", "/v1/telemetry/devices").catch(() => ({}))).devices || known;
    for (const device of listed) presence.set(device.id, { lastSeen: device.lastSeen, online: Boolean(device.online) });
    const own = listed.filter((device) => device.mine).slice(0, 10);
    const answers = await Promise.all(own.map((device) =>
      api("GET", `/v1/telemetry/devices/${segment(device.id)}/latest`).catch(() => ({ values: [] }))));
    own.forEach((device, index) => latestValues.set(device.id, new Map((answers[index].values || []).map((value) => [value.measure, value]))));
    drawNow();
  }

  /** How many readings the map shows, of how many, and the stations. */
  function drawSummary() {
    replace(summary, t(shownNow.sampled ? "air.summarySampled" : "air.summary", { count: shownNow.count, total: shownNow.total }), " ", shownNow.stationsNote);
  }

  /** Each board's presence (sending; offline since its last upload; never heard from) and its
   * latest value of each measure. */
  function drawNow() {
    const chosen = boardPicker.value;
    const shownBoards = known.filter((device) => (chosen ? device.id === chosen : device.mine));
    replace(nowList, shownBoards.length ? shownBoards.map((device) => {
      const board = presence.get(device.id) || {};
      const state = board.lastSeen
        ? t(board.online ? "air.online" : "air.offlineSince", { time: dateTime(board.lastSeen) })
        : t("air.neverSeen");
      const values = [...(latestValues.get(device.id) || new Map()).values()]
        .sort((a, b) => measures.findIndex(([m]) => m === a.measure) - measures.findIndex(([m]) => m === b.measure))
        .map((value) => `${measureName(measureOf(value.measure)[1])} ${number(Number(value.value), 1)} ${value.unit || units.get(value.measure) || ""}`.trim());
      return h("li", { "data-device": device.id, "data-online": String(Boolean(board.online)) },
        h("strong", {}, device.name), " — ", h("span", { class: board.online ? "online" : "offline" }, state),
        values.length ? h("span", { class: "latest" }, ` · ${values.join(" · ")}`) : null);
    }) : h("li", { class: "empty" }, t("air.noBoards")));
  }

  /** A reading that arrived live: on the map and the chart when it has the measure shown, and
   * in its board's latest values. */
  function addLive(deviceId, reading) {
    const values = latestValues.get(deviceId) || new Map();
    latestValues.set(deviceId, values);
    for (const [measure, field] of Object.entries(readingField)) {
      if (reading[field] === undefined) continue;
      const before = values.get(measure);
      if (!before || Date.parse(before.time) <= Date.parse(reading.time)) {
        values.set(measure, { measure, time: reading.time, value: reading[field], unit: units.get(measure) });
      }
    }
    if (!shownNow) return;
    const value = reading[readingField[shownNow.measure]];
    if (value === undefined) return;
    const positioned = reading.gpsFix !== false && !(Number(reading.latitude || 0) === 0 && Number(reading.longitude || 0) === 0);
    if (positioned) {
      const point = { time: reading.time, latitude: Number(reading.latitude), longitude: Number(reading.longitude), value };
      window.L.circleMarker([point.latitude, point.longitude], {
        radius: readingRadius(value, shownNow.scale),
        color: colours.moqa, weight: 2, fillColor: colourOf(shownNow.bands, value, undefined, shownNow.scale), fillOpacity: 0.9,
        className: "reading live",
      }).bindTooltip(readingTip(shownNow.name, point, shownNow.unit, "")).addTo(layer);
      shownNow.count += 1;
      shownNow.total += 1;
      mapElement.dataset.readings = String(shownNow.count);
      drawSummary();
      if (!map.getBounds().contains([point.latitude, point.longitude])) map.panTo([point.latitude, point.longitude]);
    }
    let line = window.Chart.getChart(chartCanvas);
    if (!line) {
      line = lineChart([{ label: t("air.yourBoardsOf", { measure: shownNow.name }), data: [], borderColor: colours.moqa, backgroundColor: colours.moqa, pointRadius: 2 }],
        shownNow.unit, false);
      chartCanvas.dataset.referencePoints = "0";
      replace(chartNote);
    }
    line.data.datasets[0].data.push({ x: Date.parse(reading.time), y: value });
    line.update("none");
    chartCanvas.dataset.points = String(line.data.datasets[0].data.length);
  }

  /** Live mode on: the stream of the boards chosen (all the person's own, or one); off: closed. */
  function followLive() {
    if (liveStream) liveStream.close();
    liveStream = null;
    if (!controls.querySelector("#air-live").checked) {
      replace(liveStatus);
      delete mapElement.dataset.live;
      return;
    }
    liveStream = openStream(withQuery("/v1/telemetry/readings:watch", { device_id: boardPicker.value || undefined }), {
      onMessage: (message) => {
        for (const board of message.boards || []) presence.set(board.deviceId, { lastSeen: board.lastSeen, online: Boolean(board.online) });
        const batch = message.readings;
        for (const reading of (batch && batch.readings) || []) addLive(batch.deviceId, reading);
        if (batch) {
          liveCount += (batch.readings || []).length;
          mapElement.dataset.liveReadings = String(liveCount);
        }
        drawNow();
      },
      onState: (state) => {
        replace(liveStatus, t(state === "open" ? "air.liveOn" : "air.liveReconnecting"));
        mapElement.dataset.live = state;
      },
      onError: (error) => replace(liveStatus, error.message || t("air.liveReconnecting")),
    });
  }

  const liveToggle = controls.querySelector("#air-live");
  liveToggle.addEventListener("change", async () => {
    // Following live means a window that reaches now: one that ended earlier moves up to now.
    if (liveToggle.checked) {
      const to = controls.querySelector("[name=to]");
      const from = controls.querySelector("[name=from]");
      const end = fromZonedInput(to.value);
      if (end < new Date()) {
        const length = end - fromZonedInput(from.value);
        const now = new Date(Date.now() + 3600_000);
        to.value = toZonedInput(now);
        from.value = toZonedInput(new Date(now - length));
        await draw(Object.fromEntries(new FormData(controls).entries())).catch((error) => announce(error.message));
      }
    }
    followLive();
  });
  boardPicker.addEventListener("change", () => { drawNow(); if (liveStream) followLive(); });

  await drawDevices(devices);
  drawNow();
  try {
    await draw(Object.fromEntries(new FormData(controls).entries()));
  } catch (error) {
    summary.replaceWith(failure(error));
  }
  followLive();
  // Leaving the page ends live mode.
  return () => { if (liveStream) liveStream.close(); };
}
