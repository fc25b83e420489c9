// Open data (no sign-in): the public boards' readings as daily CSV files by area (the province of
// the nearest regional station), as Sensor.Community publishes its daily archive. Without dates,
// the 31 days up to the latest public reading; "Earlier" goes to the range before.

import { publicApi, withQuery } from "../api.js";
import { h, replace, field, form, failure } from "../dom.js";
import { t, calendarDate, number } from "../i18n.js";

export async function show(main, { query }) {
  const summary = h("p", { id: "open-data-summary", role: "status" });
  const list = h("div", { id: "open-data-files" });
  const earlier = h("p", { id: "open-data-earlier" });
  const areaSelect = field(t("openData.area"), { name: "area", options: [["", t("openData.everyArea")]], value: query.area || "" });
  const controls = form(t("openData.filter"), [
    areaSelect,
    field(t("openData.from"), { name: "from_day", type: "date", value: query.from || "" }),
    field(t("openData.to"), { name: "to_day", type: "date", value: query.to || "" }),
  ], t("openData.show"), (values) => load(values), { id: "open-data-form", class: "inline" });
  main.append(h("p", {}, t("openData.intro")), controls, summary, list, earlier);

  function setArea(areas, chosen) {
    const select = areaSelect.querySelector("select");
    replace(select, h("option", { value: "" }, t("openData.everyArea")),
      areas.map((area) => h("option", { value: area.area, selected: area.area === chosen }, area.name)));
  }

  async function load({ area = "", from_day = "", to_day = "" }) {
    const answer = await publicApi("GET", withQuery("/v1/telemetry/open-data", { area, from_day, to_day }));
    setArea(answer.areas || [], area);
    controls.elements.from_day.value = answer.fromDay || "";
    controls.elements.to_day.value = answer.toDay || "";
    const files = answer.files || [];
    replace(summary, !answer.toDay ? t("openData.nothingYet")
      : files.length ? t("openData.summary", { count: files.length, from: calendarDate(answer.fromDay), to: calendarDate(answer.toDay) })
        : t("openData.none", { from: calendarDate(answer.fromDay), to: calendarDate(answer.toDay) }));
    replace(list, files.length ? h("div", { class: "table-scroll" }, h("table", { class: "compact", id: "open-data-table" },
      h("thead", {}, h("tr", {}, ["openData.day", "openData.area", "openData.readings", "openData.boards", "openData.file"].map((key) => h("th", { scope: "col" }, t(key))))),
      h("tbody", {}, files.map((file) => h("tr", { dataset: { day: file.day, area: file.area } },
        h("td", {}, calendarDate(file.day)),
        h("td", {}, file.areaName),
        h("td", {}, number(file.readings || 0, 0)),
        h("td", {}, number(file.boards || 0, 0)),
        h("td", {}, h("a", {
          href: file.path, download: `binario-air-${file.day}-${file.area}.csv`, class: "open-data-download",
          "aria-label": t("openData.downloadLabel", { day: calendarDate(file.day), area: file.areaName }),
        }, t("openData.download")))))))) : "");
    replace(earlier, answer.earlierDay ? h("button", {
      type: "button", class: "secondary", id: "open-data-earlier-button",
      onclick: () => run({ area, to_day: answer.earlierDay }),
    }, t("openData.earlier", { day: calendarDate(answer.earlierDay) })) : "");
  }

  async function run(values) {
    try {
      await load(values);
    } catch (error) {
      replace(summary, failure(error));
    }
  }

  await run({ area: query.area || "", from_day: query.from || "", to_day: query.to || "" });
}
