// Admins change a run live: delay it, move it to another platform, cancel it; each change is
// recorded with its reason, reaches the boards at once and the run's followers as notifications.

import { api, segment, withQuery } from "../api.js";
import { h, replace, field, form, failure, announce, dateTime, fromZonedInput, toZonedInput } from "../dom.js";
import { t } from "../i18n.js";
import { runPath, stopTime, platform, status, destination } from "./runs.js";

export async function show(main, { query }) {
  const stations = (await api("GET", "/v1/stations")).stations || [];
  const stationId = query.station || "MI_CENTRALE";
  const picker = h("select", { id: "admin-station" },
    stations.map((station) => h("option", { value: station.stationId, selected: station.stationId === stationId }, station.name)));
  // Any date and time: the runs from then on (not only the next ones).
  const from = h("input", { id: "admin-from", type: "datetime-local", value: query.after || toZonedInput(new Date()) });
  const go = () => { location.hash = `#/admin/trips?station=${encodeURIComponent(picker.value)}&after=${encodeURIComponent(from.value)}`; };
  picker.addEventListener("change", go);
  from.addEventListener("change", go);
  const runs = h("section", { id: "admin-runs" });
  const editor = h("section", { id: "run-editor", "aria-live": "polite" });
  main.append(h("div", { class: "toolbar" },
    h("label", { for: "admin-station" }, t("admin.departuresFrom")), picker,
    h("label", { for: "admin-from" }, t("admin.fromTime")), from), runs, editor);

  async function load() {
    const after = query.after ? fromZonedInput(query.after).toISOString() : undefined;
    const board = await api("GET", withQuery(`/v1/stations/${segment(stationId)}/departures`, { limit: 20, after }));
    replace(runs, h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["board.time", "board.train", "board.to", "board.platform", "board.status", "admin.change"].map((key) => h("th", { scope: "col" }, key === "admin.change" ? h("span", { class: "visually-hidden" }, t(key)) : t(key))))),
      h("tbody", {}, (board.departures || []).map((departure) => {
        const run = departure.run;
        const stop = run.stops.find((candidate) => candidate.sequence === departure.sequence) || run.stops[0];
        return h("tr", { dataset: { trip: run.run.tripId } },
          h("td", {}, stopTime(stop)), h("td", {}, `${run.line} ${run.trainNumber}`), h("td", {}, destination(run)),
          h("td", {}, platform(stop)), h("td", {}, status(run, stop)),
          h("td", {}, h("button", { type: "button", class: "secondary change-run", "aria-label": t("admin.changeTrain", { train: `${run.line} ${run.trainNumber}` }),
            onclick: () => edit(run, stop) }, t("admin.change"))));
      }))));
  }

  async function edit(run, stop) {
    const path = `/v1/admin${runPath(run.run).slice(3)}`;
    const label = t("run.title", { train: `${run.line} ${run.trainNumber}`, destination: destination(run) });
    const done = async (what) => {
      announce(`${label}: ${what}`);
      await load();
      await history();
    };
    const log = h("ol", { class: "changes" });
    async function history() {
      const answer = await api("GET", `${path}/changes`);
      replace(log, (answer.changes || []).map((change) => h("li", {},
        dateTime(change.changedAt), " — ",
        change.delay ? (change.delay.minutes < 0 ? t("admin.early", { count: -change.delay.minutes }) : t("admin.delayed", { count: change.delay.minutes || 0 })) : change.platformChange ? t("admin.platform", { platform: change.platformChange.platform }) : t("admin.cancelled"),
        change.reason ? ` (${change.reason})` : "")));
    }
    // A key per change meant: a form sent again (a retry after a lost answer) changes nothing
    // more; a new key once the change is made.
    const keys = { delay: crypto.randomUUID(), platform: crypto.randomUUID(), cancel: crypto.randomUUID() };
    replace(editor,
      h("h2", {}, t("admin.changeTrain", { train: label })),
      h("p", {}, `${t("admin.at", { station: stop.station.name })}: `, stopTime(stop), " ", platform(stop), " ", status(run, stop)),
      form(t("admin.delay"), [
        field(t("admin.minutes"), { name: "minutes", type: "number", min: -120, max: 1440, value: "10" }, t("admin.minutesHint")),
        field(t("admin.newDeparture"), { name: "newDeparture", type: "time" }, t("admin.newDepartureHint")),
        field(t("admin.reason"), { name: "reason", required: true, placeholder: t("admin.reasonDelay") }),
      ], t("admin.delayButton"), async (values) => {
        const retimed = Boolean(values.newDeparture);
        const answer = await api("POST", `${path}:delay`, {
          fromSequence: stop.sequence, minutes: retimed ? 0 : Number(values.minutes || 0), newDeparture: values.newDeparture || undefined,
          reason: values.reason, idempotencyKey: keys.delay,
        });
        keys.delay = crypto.randomUUID();
        const minutes = (answer.run.stops.find((candidate) => candidate.sequence === stop.sequence) || {}).delayMinutes || 0;
        await done(minutes < 0 ? t("admin.nowEarly", { count: -minutes }) : t("admin.nowLate", { count: minutes }));
      }, { id: "delay-form", class: "inline" }),
      form(t("board.platform"), [
        field(t("admin.newPlatform"), { name: "platform", required: true }),
        field(t("admin.reason"), { name: "reason", required: true, placeholder: t("admin.reasonPlatform") }),
      ], t("admin.platformButton"), async (values) => {
        await api("POST", `${path}:changePlatform`, { sequence: stop.sequence, platform: values.platform, reason: values.reason, idempotencyKey: keys.platform });
        keys.platform = crypto.randomUUID();
        await done(t("admin.nowPlatform", { platform: values.platform }));
      }, { id: "platform-form", class: "inline" }),
      form(t("admin.cancel"), [
        field(t("journeys.from"), { name: "from", options: [["here", t("admin.fromHere", { station: stop.station.name })], ["whole", t("admin.wholeRun")]] }),
        field(t("admin.reason"), { name: "reason", required: true, placeholder: t("admin.reasonCancel") }),
      ], t("admin.cancelButton"), async (values) => {
        await api("POST", `${path}:cancel`, { fromSequence: values.from === "whole" ? 0 : stop.sequence, reason: values.reason, idempotencyKey: keys.cancel });
        keys.cancel = crypto.randomUUID();
        await done(t("admin.cancelled"));
      }, { id: "cancel-form", class: "inline" }),
      h("h3", {}, t("admin.changes")), log);
    await history().catch((error) => editor.append(failure(error)));
    editor.querySelector("input")?.focus();
  }

  try {
    await load();
  } catch (error) {
    main.append(failure(error));
  }
}
