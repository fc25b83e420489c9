// Air-quality settings (MOQA's settings screen): the measure the map and the chart open on, and
// the reference stations a person picks ("pick stations"), which the filter then offers first.
// A person's own links to the open-data portal's datasets (MOQA lets each user manage theirs;
// the admin's sources stay everyone's default). Their air alerts: a measure above a threshold on
// their boards, one board or the public boards near a station, and a board gone silent, heard of
// in the notification centre. The account itself (profile, password typed twice, deletion) is
// the profile page's.

import { api } from "../api.js";
import { h, replace, form, field, announce, failure, dateTime, number } from "../dom.js";
import { t } from "../i18n.js";
import { measures, measureName, measure as measureOf } from "../measures.js";

/** Where the station list is asked from: the middle of Lombardy, and as far as the API allows. */
const lombardyMiddle = { latitude: 45.62, longitude: 9.75, radius_metres: 100000 };

export async function show(main) {
  let settings;
  let sensors;
  let links;
  let alerts;
  let devices;
  try {
    [settings, links, sensors, alerts, devices] = await Promise.all([
      api("GET", "/v1/telemetry/settings"),
      api("GET", "/v1/telemetry/settings/portal-links"),
      api("GET", `/v1/telemetry/reference/sensors?latitude=${lombardyMiddle.latitude}&longitude=${lombardyMiddle.longitude}&radius_metres=${lombardyMiddle.radius_metres}`),
      api("GET", "/v1/telemetry/settings/alerts"),
      api("GET", "/v1/telemetry/devices"),
    ]);
  } catch (error) {
    main.append(failure(error));
    return;
  }
  // One entry per station: its name, town, network and the measures it takes.
  const stations = new Map();
  for (const { sensor } of sensors.sensors || []) {
    const station = stations.get(sensor.stationId) || {
      id: sensor.stationId, name: sensor.stationName, town: sensor.municipality, network: sensor.network, measures: new Set(),
      latitude: sensor.latitude, longitude: sensor.longitude,
    };
    if (sensor.measure && sensor.measure !== "MEASURE_UNSPECIFIED") station.measures.add(sensor.measure);
    stations.set(sensor.stationId, station);
  }
  const picked = new Set(settings.stationIds || []);
  const ordered = [...stations.values()].sort((a, b) => Number(picked.has(b.id)) - Number(picked.has(a.id)) || a.name.localeCompare(b.name));

  const list = h("ul", { id: "station-choices", class: "checks" }, ordered.map((station) =>
    h("li", {}, h("label", { class: "check" },
      h("input", { type: "checkbox", name: "station", value: station.id, checked: picked.has(station.id) }),
      ` ${station.name}`, station.town && station.town !== station.name ? ` (${station.town})` : "",
      h("span", { class: "hint" }, ` · ${t(station.network === "weather" ? "air.networkWeather" : "air.networkAirQuality")}`,
        station.measures.size ? ` · ${[...station.measures].map((value) => measureName(measureOf(value)[1])).join(", ")}` : "")))));

  const settingsForm = form(t("airSettings.title"), [
    field(t("airSettings.defaultMeasure"), {
      name: "defaultMeasure",
      options: [["MEASURE_UNSPECIFIED", t("airSettings.appDefault")], ...measures.map(([value, name]) => [value, measureName(name)])],
      value: settings.defaultMeasure || "MEASURE_UNSPECIFIED",
    }, t("airSettings.defaultMeasureHint")),
    h("fieldset", {}, h("legend", {}, t("airSettings.stations")), h("p", { class: "hint" }, t("airSettings.stationsHint", { count: stations.size })), list),
  ], t("airSettings.save"), async (values, element) => {
    const chosen = [...element.querySelectorAll("input[name=station]:checked")].map((input) => input.value);
    const saved = await api("PUT", "/v1/telemetry/settings", { defaultMeasure: values.defaultMeasure, setStationIds: true, stationIds: chosen });
    replace(summary, summaryOf(saved));
    announce(t("airSettings.saved"));
  }, { id: "air-settings-form" });

  const summaryOf = (saved) => t("airSettings.summary", {
    measure: saved.defaultMeasure && saved.defaultMeasure !== "MEASURE_UNSPECIFIED"
      ? measureName(measureOf(saved.defaultMeasure)[1]) : "PM2.5",
    count: (saved.stationIds || []).length,
  });
  const summary = h("p", { id: "air-settings-summary", role: "status" }, summaryOf(settings));
  main.append(h("p", {}, h("a", { href: "#/air" }, t("airSettings.back")), " · ", h("a", { href: "#/profile" }, t("airSettings.account"))),
    summary, settingsForm, airAlerts(alerts.alerts || [], devices.devices || [], ordered), portalLinks(links.links || []));
}

/** The choices of what an alert watches: the person's boards, each board they see, and the
 * public boards near each station. */
const AREA = "area:";
const RADII = [1, 2, 5, 10];

/** An alert in words: what it watches and when it tells. */
function alertWords(alert, devices) {
  const board = alert.deviceId ? (devices.find((device) => device.id === alert.deviceId) || { name: alert.deviceId }).name : null;
  const where = alert.area
    ? t("airAlerts.whereArea", { km: number(Number(alert.area.radiusMetres) / 1000, 1) })
    : board ? t("airAlerts.whereBoard", { board }) : t("airAlerts.whereMine");
  const when = alert.kind === "AIR_ALERT_KIND_SILENCE"
    ? t("airAlerts.whenSilent", { minutes: Number(alert.silentMinutes) })
    : t("airAlerts.whenAbove", { measure: measureName(measureOf(alert.measure)[1]), threshold: number(Number(alert.threshold || 0), 1), unit: alert.unit || "" });
  return `${when} · ${where}`;
}

/** The person's air alerts: each in words, with when it last told them and a delete button, and
 * a form for a new one. */
function airAlerts(initial, devices, stations) {
  const list = h("ul", { id: "air-alerts", class: "plain" });
  const render = (alerts) => replace(list, alerts.length ? alerts.map((alert) => h("li", { "data-alert": alert.name },
    h("strong", {}, alert.name), ` · ${alertWords(alert, devices)}`, h("br"),
    h("span", { class: "hint" }, alert.lastTriggeredAt ? t("airAlerts.lastTold", { when: dateTime(alert.lastTriggeredAt) }) : t("airAlerts.notYet")),
    " ", h("button", { type: "button", class: "secondary", onclick: async () => {
      await api("DELETE", `/v1/telemetry/settings/alerts/${encodeURIComponent(alert.alertId)}`);
      render((await api("GET", "/v1/telemetry/settings/alerts")).alerts || []);
      announce(t("airAlerts.deleted", { name: alert.name }));
    } }, t("airAlerts.delete", { name: alert.name }))))
    : [h("li", { class: "hint" }, t("airAlerts.none"))]);
  render(initial);
  const airStations = stations.filter((station) => station.network !== "weather");
  const watchOptions = [["", t("airAlerts.whereMine")],
    ...devices.map((device) => [device.id, t("airAlerts.whereBoard", { board: device.name })]),
    ...airStations.map((station) => [AREA + station.id, t("airAlerts.nearStation", { station: station.name })])];
  // A retry of the same form (a lost answer) makes no second alert; a new form, a new key.
  let key = crypto.randomUUID();
  const addForm = form(t("airAlerts.add"), [
    field(t("airAlerts.name"), { name: "name", required: true, maxlength: 60, placeholder: t("airAlerts.nameExample") }),
    field(t("airAlerts.kind"), { name: "kind", options: [["AIR_ALERT_KIND_THRESHOLD", t("airAlerts.kindThreshold")], ["AIR_ALERT_KIND_SILENCE", t("airAlerts.kindSilence")]],
      value: "AIR_ALERT_KIND_THRESHOLD" }),
    field(t("air.measure"), { name: "measure", options: measures.map(([value, name]) => [value, measureName(name)]), value: "MEASURE_PM2_5" }),
    field(t("airAlerts.threshold"), { name: "threshold", type: "number", step: "any", value: "25" }, t("airAlerts.thresholdHint")),
    field(t("airAlerts.silentMinutes"), { name: "silent_minutes", type: "number", min: 10, max: 10080, value: "60" }),
    field(t("airAlerts.watch"), { name: "watch", options: watchOptions, value: "" }),
    field(t("airAlerts.radius"), { name: "area", options: RADII.map((km) => [String(km * 1000), `${km} km`]), value: "2000" }),
  ], t("airAlerts.add"), async (values, element) => {
    const silence = values.kind === "AIR_ALERT_KIND_SILENCE";
    const body = { name: values.name, kind: values.kind, idempotencyKey: key };
    if (silence) body.silentMinutes = Number(values.silent_minutes);
    else Object.assign(body, { measure: values.measure, threshold: Number(values.threshold) });
    if (values.watch.startsWith(AREA)) {
      const station = airStations.find((candidate) => candidate.id === values.watch.slice(AREA.length));
      body.area = { latitude: station.latitude, longitude: station.longitude, radiusMetres: Number(values.area) };
    } else if (values.watch) {
      body.deviceId = values.watch;
    }
    const made = await api("POST", "/v1/telemetry/settings/alerts", body);
    key = crypto.randomUUID();
    render((await api("GET", "/v1/telemetry/settings/alerts")).alerts || []);
    element.reset();
    showFields();
    announce(t("airAlerts.saved", { name: made.alert.name }));
  }, { id: "air-alert-form" });
  // Only the fields the chosen kind and watch use are shown.
  const showFields = () => {
    const silence = addForm.querySelector("[name=kind]").value === "AIR_ALERT_KIND_SILENCE";
    const area = addForm.querySelector("[name=watch]").value.startsWith(AREA);
    for (const [name, shown] of [["measure", !silence], ["threshold", !silence], ["silent_minutes", silence], ["area", area]]) {
      addForm.querySelector(`[name=${name}]`).closest(".field").hidden = !shown;
    }
    for (const option of addForm.querySelectorAll("[name=watch] option")) option.disabled = silence && option.value.startsWith(AREA);
  };
  addForm.querySelector("[name=kind]").addEventListener("change", showFields);
  addForm.querySelector("[name=watch]").addEventListener("change", showFields);
  showFields();
  return h("section", { "aria-labelledby": "air-alerts-title" },
    h("h2", { id: "air-alerts-title" }, t("airAlerts.title")),
    h("p", { class: "hint" }, t("airAlerts.hint")), list, addForm);
}

/** What a link holds, in words. */
const kindNames = () => ({
  measurements: t("airSettings.kind_measurements"),
  near_real_time: t("airSettings.kind_near_real_time"),
  catalogue: t("airSettings.kind_catalogue"),
});

/** The person's links to the portal: each with how its fetches go and a delete button, and a
 * form to add one (the portal's own address only). */
function portalLinks(initial) {
  const list = h("ul", { id: "portal-links", class: "plain" });
  const render = (links) => replace(list, links.length ? links.map((link) => h("li", { "data-link": link.name },
    h("strong", {}, link.name), ` · ${kindNames()[link.kind] || link.kind}`,
    link.fillGapsFrom ? ` · ${t("airSettings.fillsFrom", { name: link.fillGapsFrom })}` : "",
    h("br"), h("code", {}, link.url), h("br"),
    h("span", { class: "hint" }, link.lastError
      ? t("airSettings.linkFailed", { when: dateTime(link.lastFailedAt), error: link.lastError })
      : link.lastFetchedAt ? t("airSettings.linkFetched", { when: dateTime(link.lastFetchedAt) }) : t("airSettings.linkNotYet")),
    " ", h("button", { type: "button", class: "secondary", onclick: async () => {
      await api("DELETE", `/v1/telemetry/settings/portal-links/${encodeURIComponent(link.name)}`);
      render((await api("GET", "/v1/telemetry/settings/portal-links")).links || []);
      announce(t("airSettings.linkDeleted", { name: link.name }));
    } }, t("airSettings.deleteLink", { name: link.name }))))
    : [h("li", { class: "hint" }, t("airSettings.noLinks"))]);
  render(initial);
  const kinds = Object.entries(kindNames());
  const addForm = form(t("airSettings.addLink"), [
    field(t("airSettings.linkName"), { name: "name", required: true, maxlength: 60, pattern: "[A-Za-z0-9_-]+" }, t("airSettings.linkNameHint")),
    field(t("airSettings.linkUrl"), { name: "url", type: "url", required: true, placeholder: "https://www.dati.lombardia.it/resource/nicp-bhqi.json" }, t("airSettings.linkUrlHint")),
    field(t("airSettings.linkKind"), { name: "kind", options: kinds, value: "measurements" }),
    field(t("airSettings.linkNetwork"), { name: "network", options: [["air_quality", t("air.networkAirQuality")], ["weather", t("air.networkWeather")]], value: "air_quality" }),
  ], t("airSettings.addLink"), async (values, element) => {
    const saved = await api("POST", "/v1/telemetry/settings/portal-links", values);
    render((await api("GET", "/v1/telemetry/settings/portal-links")).links || []);
    element.reset();
    announce(t("airSettings.linkSaved", { name: saved.link.name }));
  }, { id: "portal-link-form" });
  return h("section", { "aria-labelledby": "portal-links-title" },
    h("h2", { id: "portal-links-title" }, t("airSettings.linksTitle")),
    h("p", { class: "hint" }, t("airSettings.linksHint")), list, addForm);
}
