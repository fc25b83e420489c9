// How a train run is drawn, wherever one is shown: its times with the delay, its platform
// with a change marked, a cancellation, and following it.

import { api, segment } from "../api.js";
import { session } from "../session.js";
import { enablePush } from "../push.js";
import { h, time, announce } from "../dom.js";
import { t } from "../i18n.js";

/** `{tripId, serviceDate}` as one key. */
export const runKey = (ref) => `${ref.tripId}/${ref.serviceDate}`;

export function runPath(ref) {
  return `/v1/trips/${segment(ref.tripId)}/runs/${segment(ref.serviceDate)}`;
}

/** The scheduled time, and the expected one beside it when the train is late. */
export function stopTime(stop, which = "Departure") {
  const scheduled = stop[`scheduled${which}`];
  const expected = stop[`expected${which}`];
  if (!scheduled) return "";
  const late = stop.delayMinutes > 0;
  return h("span", { class: "stop-time" },
    h("time", { datetime: scheduled, class: late ? "scheduled late" : "scheduled" }, time(scheduled)),
    late ? h("time", { datetime: expected, class: "expected", "aria-label": t("run.expectedAt", { time: time(expected) }) }, time(expected)) : null);
}

/** The platform now, and the one it replaced. */
export function platform(stop) {
  if (!stop.platform) return h("span", { class: "platform unknown" }, "–");
  return stop.platformChanged
    ? h("span", { class: "platform changed", title: t("run.platformChanged", { platform: stop.scheduledPlatform }) },
      stop.platform, h("span", { class: "visually-hidden" }, ` (${t("run.platformChanged", { platform: stop.scheduledPlatform })})`),
      h("s", { "aria-hidden": "true" }, stop.scheduledPlatform))
    : h("span", { class: "platform" }, stop.platform);
}

/** On time, late by N minutes, or cancelled. */
export function status(run, stop) {
  if (run.cancelled || stop.cancelled) return h("span", { class: "status cancelled" }, t("run.cancelled"));
  if (stop.delayMinutes > 0) return h("span", { class: "status delayed" }, t("run.late", { count: stop.delayMinutes }));
  return h("span", { class: "status on-time" }, t("run.onTime"));
}

/** The runs the signed-in user follows, as keys. */
export async function followedKeys() {
  if (!session.user) return new Set();
  const answer = await api("GET", "/v1/me/followed-runs");
  return new Set((answer.runs || []).map((run) => runKey(run.run)));
}

/** A button that follows (or stops following) a run; `followed` is the shared set of keys;
 * `part` ({fromStationId, toStationId}) the part of the run the traveller rides. */
export function followButton(ref, followed, label, part = {}) {
  if (!session.user) return null;
  const key = runKey(ref);
  const button = h("button", { type: "button", class: "secondary follow", "aria-pressed": String(followed.has(key)) });
  const draw = () => {
    const on = followed.has(key);
    button.textContent = on ? t("run.following") : t("run.follow");
    button.setAttribute("aria-pressed", String(on));
    button.setAttribute("aria-label", t(on ? "run.unfollowLabel" : "run.followLabel", { train: label }));
  };
  // Busy while the call runs, but never disabled: disabling the focused button would drop a
  // keyboard user's focus to the page's start.
  let busy = false;
  button.addEventListener("click", async () => {
    if (busy) return;
    const on = followed.has(key);
    busy = true;
    button.setAttribute("aria-busy", "true");
    try {
      await api("POST", `${runPath(ref)}:${on ? "unfollow" : "follow"}`, on ? {} : part);
      if (on) followed.delete(key); else followed.add(key);
      announce(t(on ? "run.unfollowed" : "run.followed", { train: label }));
      // The first train followed: its news can reach this device while the app is closed.
      if (!on) enablePush();
      draw();
    } catch (error) {
      announce(error.message);
    } finally {
      busy = false;
      button.removeAttribute("aria-busy");
    }
  });
  draw();
  return button;
}

/** Where a run ends. */
export const destination = (run) => run.headsign || (run.stops && run.stops.length ? run.stops[run.stops.length - 1].station.name : "");

/** Where a journey's leg is boarded and left. */
export function journeyStops(leg) {
  const stops = leg.run.stops;
  return {
    board: stops.find((stop) => stop.sequence === leg.boardSequence) || stops[0],
    alight: stops.find((stop) => stop.sequence === leg.alightSequence) || stops[stops.length - 1],
  };
}

/** A link to the buy page with a journey chosen: one ticket for all its trains. */
export function journeyBuyLink(journey, label) {
  const first = journeyStops(journey.legs[0]);
  const last = journeyStops(journey.legs[journey.legs.length - 1]);
  if (journey.legs.some((leg) => leg.run.cancelled || journeyStops(leg).board.cancelled)) return null;
  const query = new URLSearchParams({
    trip: journey.legs.map((leg) => leg.run.run.tripId).join(","), date: journey.legs[0].run.run.serviceDate,
    from: first.board.station.stationId, to: last.alight.station.stationId,
    time: first.board.scheduledDeparture || "",
  });
  return h("a", { href: `#/buy?${query}`, class: "buy", "aria-label": t("buy.journeyLabel", { journey: label }) }, t("buy.short"));
}

/** A link to the buy page with this run chosen, from one of its stops to a later one (the
 * run's last unless `toStationId`); `label` names the train for people who hear links. */
export function buyLink(run, fromStop, label, toStationId) {
  const last = run.stops[run.stops.length - 1];
  const to = toStationId || last.station.stationId;
  if (run.cancelled || fromStop.cancelled || fromStop.station.stationId === to) return null;
  const query = new URLSearchParams({
    trip: run.run.tripId, date: run.run.serviceDate, from: fromStop.station.stationId, to,
    time: fromStop.scheduledDeparture || "",
  });
  return h("a", { href: `#/buy?${query}`, class: "buy", "aria-label": t("buy.trainLabel", { train: label }) }, t("buy.short"));
}
