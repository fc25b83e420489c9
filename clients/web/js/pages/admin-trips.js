// Admins change a run live: delay it, move it to another platform, cancel it; each change is
// recorded with its reason, reaches the boards at once and the run's followers as notifications.

import { api, segment, withQuery } from "../api.js";
import { h, replace, field, form, failure, announce, dateTime } from "../dom.js";
import { runPath, stopTime, platform, status, destination } from "./runs.js";

export async function show(main, { query }) {
  const stations = (await api("GET", "/v1/stations")).stations || [];
  const stationId = query.station || "MI_CENTRALE";
  const picker = h("select", { id: "admin-station" },
    stations.map((station) => h("option", { value: station.stationId, selected: station.stationId === stationId }, station.name)));
  picker.addEventListener("change", () => { location.hash = `#/admin/trips?station=${encodeURIComponent(picker.value)}`; });
  const runs = h("section", { id: "admin-runs" });
  const editor = h("section", { id: "run-editor", "aria-live": "polite" });
  main.append(h("div", { class: "toolbar" }, h("label", { for: "admin-station" }, "Departures from"), picker), runs, editor);

  async function load() {
    const board = await api("GET", withQuery(`/v1/stations/${segment(stationId)}/departures`, { limit: 12 }));
    replace(runs, h("table", { class: "board" },
      h("thead", {}, h("tr", {}, ["Time", "Train", "To", "Platform", "Status", ""].map((title) => h("th", { scope: "col" }, title)))),
      h("tbody", {}, (board.departures || []).map((departure) => {
        const run = departure.run;
        const stop = run.stops.find((candidate) => candidate.sequence === departure.sequence) || run.stops[0];
        return h("tr", { dataset: { trip: run.run.tripId } },
          h("td", {}, stopTime(stop)), h("td", {}, `${run.line} ${run.trainNumber}`), h("td", {}, destination(run)),
          h("td", {}, platform(stop)), h("td", {}, status(run, stop)),
          h("td", {}, h("button", { type: "button", class: "secondary change-run", "aria-label": `Change ${run.line} ${run.trainNumber}`,
            onclick: () => edit(run, stop) }, "Change")));
      }))));
  }

  async function edit(run, stop) {
    const path = `/v1/admin${runPath(run.run).slice(3)}`;
    const label = `${run.line} ${run.trainNumber} to ${destination(run)}`;
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
        change.delay ? `delay ${change.delay.minutes} min` : change.platformChange ? `platform ${change.platformChange.platform}` : "cancelled",
        change.reason ? ` (${change.reason})` : "")));
    }
    // A key per change meant: a form sent again (a retry after a lost answer) changes nothing
    // more; a new key once the change is made.
    const keys = { delay: crypto.randomUUID(), platform: crypto.randomUUID(), cancel: crypto.randomUUID() };
    replace(editor,
      h("h2", {}, `Change ${label}`),
      h("p", {}, `At ${stop.station.name}: `, stopTime(stop), " ", platform(stop), " ", status(run, stop)),
      form("Delay", [
        field("Minutes late", { name: "minutes", type: "number", min: 0, max: 1440, required: true, value: "10" }, "0 clears the delay."),
        field("Reason", { name: "reason", required: true, placeholder: "Signal failure" }),
      ], "Delay the train", async (values) => {
        await api("POST", `${path}:delay`, { fromSequence: stop.sequence, minutes: Number(values.minutes), reason: values.reason, idempotencyKey: keys.delay });
        keys.delay = crypto.randomUUID();
        await done(`${values.minutes} minutes late`);
      }, { id: "delay-form", class: "inline" }),
      form("Platform", [
        field("New platform", { name: "platform", required: true }),
        field("Reason", { name: "reason", required: true, placeholder: "Track works" }),
      ], "Change the platform", async (values) => {
        await api("POST", `${path}:changePlatform`, { sequence: stop.sequence, platform: values.platform, reason: values.reason, idempotencyKey: keys.platform });
        keys.platform = crypto.randomUUID();
        await done(`now from platform ${values.platform}`);
      }, { id: "platform-form", class: "inline" }),
      form("Cancel", [
        field("From", { name: "from", options: [["here", `${stop.station.name} on`], ["whole", "the whole run"]] }),
        field("Reason", { name: "reason", required: true, placeholder: "Strike" }),
      ], "Cancel the train", async (values) => {
        await api("POST", `${path}:cancel`, { fromSequence: values.from === "whole" ? 0 : stop.sequence, reason: values.reason, idempotencyKey: keys.cancel });
        keys.cancel = crypto.randomUUID();
        await done("cancelled");
      }, { id: "cancel-form", class: "inline" }),
      h("h3", {}, "Changes so far"), log);
    await history().catch((error) => editor.append(failure(error)));
    editor.querySelector("input")?.focus();
  }

  try {
    await load();
  } catch (error) {
    main.append(failure(error));
  }
}
