// Air-quality settings (MOQA's settings screen): the measure the map and the chart open on, and
// the reference stations a person picks ("pick stations"), which the filter then offers first.
// A person's own links to the open-data portal's datasets (MOQA lets each user manage theirs;
// the admin's sources stay everyone's default). The account itself (profile, password typed
// twice, deletion) is the profile page's.

import { api } from "../api.js";
import { h, replace, form, field, announce, failure, dateTime } from "../dom.js";
import { t } from "../i18n.js";
import { measures, measureName, measure as measureOf } from "../measures.js";

/** Where the station list is asked from: the middle of Lombardy, and as far as the API allows. */
const lombardyMiddle = { latitude: 45.62, longitude: 9.75, radius_metres: 100000 };

export async function show(main) {
  let settings;
  let sensors;
  let links;
  try {
    [settings, links, sensors] = await Promise.all([
      api("GET", "/v1/telemetry/settings"),
      api("GET", "/v1/telemetry/settings/portal-links"),
      api("GET", `/v1/telemetry/reference/sensors?latitude=${lombardyMiddle.latitude}&longitude=${lombardyMiddle.longitude}&radius_metres=${lombardyMiddle.radius_metres}`),
    ]);
  } catch (error) {
    main.append(failure(error));
    return;
  }
  // One entry per station: its name, town, network and the measures it takes.
  const stations = new Map();
  for (const { sensor } of sensors.sensors || []) {
    const station = stations.get(sensor.stationId) || { id: sensor.stationId, name: sensor.stationName, town: sensor.municipality, network: sensor.network, measures: new Set() };
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
    summary, settingsForm, portalLinks(links.links || []));
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
