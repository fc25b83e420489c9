// A station's departures board, live: delays, platform changes and cancellations as they are
// made, each changed row highlighted, without a reload (WatchDeparturesBoard over SSE).

import { api, segment } from "../api.js";
import { openStream } from "../events.js";
import { h, replace, failure, announce } from "../dom.js";
import { t } from "../i18n.js";
import { runKey, stopTime, platform, status, followedKeys, followButton, destination, buyLink } from "./runs.js";
import { noticeList } from "../notices.js";
import { shareWhileOpen } from "../location.js";

const defaultStation = "MI_CENTRALE";

export async function show(main, { params }) {
  const stationId = params.station || defaultStation;
  // The stations, the followed trains and the board itself are asked for at once: on a slow
  // connection each request in turn would add its round trip to the wait for the first trains.
  const stationsAnswer = api("GET", "/v1/stations");
  const followedAnswer = followedKeys().catch(() => new Set());
  const picker = h("select", { id: "station", name: "station" }, h("option", { value: stationId, selected: true }, stationId));
  picker.addEventListener("change", () => { location.hash = `#/board/${encodeURIComponent(picker.value)}`; });
  const heading = main.querySelector("h1");
  const connection = h("p", { class: "connection", role: "status" }, t("board.connecting"));
  const table = h("table", { class: "board", id: "board", "aria-describedby": "board-caption" });
  const notices = h("div", { id: "board-notices" });
  const welcome = h("div", { id: "welcome" });
  main.append(h("div", { class: "toolbar" }, h("label", { for: "station" }, t("trip.station")), picker), connection, welcome, notices, table);

  let previous = new Map();
  let followed = new Set();
  let latest = null;

  const stream = openStream(`/v1/stations/${segment(stationId)}/departures:watch?limit=12`, {
    signedIn: false,
    onState(state) { connection.textContent = state === "open" ? t("board.live") : t("board.reconnecting"); },
    onError(error) { replace(table); main.append(failure(error)); },
    // Drawn once the followed trains are known (their buttons say so), the newest board only.
    onMessage(message) {
      latest = message;
      followedAnswer.then((keys) => { if (latest === message) { followed = keys; draw(message); } });
    },
  });
  const stations = ((await stationsAnswer.catch(() => ({}))).stations || []);
  if (stations.length) {
    replace(picker, stations.map((station) => h("option", { value: station.stationId, selected: station.stationId === stationId }, station.name)));
  }
  // With the person's consent, their position while the board is open: at the station, its
  // welcome (their train, its platform, places to visit) shows above the board.
  const stopSharing = shareWhileOpen((answer) => {
    if (!answer.welcome) return;
    replace(welcome, h("div", { class: "notice welcome", role: "status" }, h("p", {}, h("strong", {}, answer.welcome.message)),
      (answer.places || []).length ? h("p", {}, t("location.placesToVisit"), " ", answer.places.slice(0, 3).map((entry) => entry.place.name).join(", ")) : null));
  });
  return () => { stream.close(); stopSharing(); };

  function draw(message) {
    heading.textContent = t("board.from", { station: message.station.name });
    replace(notices, noticeList(message.notices));
    const next = new Map();
    const changes = [];
    const rows = (message.departures || []).map((departure) => {
      const run = departure.run;
      const stop = run.stops.find((candidate) => candidate.sequence === departure.sequence) || run.stops[0];
      const key = runKey(run.run);
      const signature = JSON.stringify([run.cancelled, stop.cancelled, stop.delayMinutes, stop.platform]);
      next.set(key, signature);
      const changed = previous.size > 0 && previous.has(key) && previous.get(key) !== signature;
      const label = t("run.title", { train: `${run.line} ${run.trainNumber}`, destination: destination(run) });
      if (changed) changes.push(t("board.change", { train: label, status: status(run, stop).textContent, platform: stop.platform || t("board.platformTba") }));
      return h("tr", {
        class: [changed ? "changed" : "", run.cancelled || stop.cancelled ? "cancelled" : "", stop.delayMinutes > 0 ? "delayed" : ""].join(" ").trim(),
        dataset: { trip: run.run.tripId, date: run.run.serviceDate },
      },
        h("td", {}, stopTime(stop)),
        h("td", {}, h("a", { href: `#/trips/${encodeURIComponent(run.run.tripId)}/${run.run.serviceDate}` }, `${run.line} ${run.trainNumber}`)),
        h("td", {}, destination(run)),
        h("td", {}, platform(stop)),
        h("td", {}, status(run, stop)),
        // Followed from here: its changes are told as they concern this station on.
        h("td", {}, followButton(run.run, followed, label, { fromStationId: message.station.stationId })),
        h("td", {}, buyLink(run, stop, label)));
    });
    previous = next;
    // A redraw must not take the focus from a keyboard user: it goes back to the same control
    // of the same train.
    const focused = table.contains(document.activeElement) ? document.activeElement : null;
    const focusedTrip = focused?.closest("tr")?.dataset.trip;
    const focusedControl = focused?.matches("button.follow") ? "button.follow" : focused?.matches("a") ? "a" : null;
    replace(table,
      h("caption", { id: "board-caption" }, t("board.caption", { count: rows.length })),
      h("thead", {}, h("tr", {}, ["board.time", "board.train", "board.to", "board.platform", "board.status", "board.follow", "buy.title"].map((key) => h("th", { scope: "col" }, key === "board.follow" || key === "buy.title" ? h("span", { class: "visually-hidden" }, t(key)) : t(key))))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 7 }, t("board.none")))));
    if (focusedTrip && focusedControl) {
      table.querySelector(`tr[data-trip="${CSS.escape(focusedTrip)}"] ${focusedControl}`)?.focus({ preventScroll: true });
    }
    if (changes.length) announce(changes.join(". "));
  }
}
