// Finding a train between two stations, and one run with all its stops.

import { api, withQuery } from "../api.js";
import { h, replace, field, form, failure, dateTime, calendarDate, fromZonedInput } from "../dom.js";
import { t } from "../i18n.js";
import { runPath, stopTime, platform, status, followedKeys, followButton, destination, buyLink, journeyStops, journeyBuyLink } from "./runs.js";
import { noticeList } from "../notices.js";

export async function showSearch(main, { query }) {
  const stations = (await api("GET", "/v1/stations")).stations || [];
  const options = stations.map((station) => [station.stationId, station.name]);
  const results = h("section", { id: "journeys", "aria-live": "polite" });
  const search = async (values) => {
    const answer = await api("GET", withQuery("/v1/journeys", {
      from_station_id: values.fromStationId, to_station_id: values.toStationId, limit: 5,
      departure_after: values.after ? fromZonedInput(values.after).toISOString() : undefined,
    }));
    const journeys = answer.journeys || [];
    replace(results, h("h2", {}, journeys.length ? t("journeys.found") : t("journeys.none")),
      h("ol", { class: "cards" }, journeys.map((journey) => h("li", { class: "card", dataset: { legs: String(journey.legs.length) } },
        h("p", {}, h("strong", {}, dateTime(journey.departure)), " → ", h("strong", {}, dateTime(journey.arrival)),
          ` (${journey.legs.length > 1 ? t("journeys.changes", { count: journey.legs.length - 1 }) : t("journeys.direct")}) `,
          // One ticket for the whole journey, all its trains.
          journeyBuyLink(journey, `${dateTime(journey.departure)} → ${dateTime(journey.arrival)}`)),
        h("ul", {}, journey.legs.map((leg) => {
          const { board, alight } = journeyStops(leg);
          return h("li", {},
            h("a", { href: `#/trips/${encodeURIComponent(leg.run.run.tripId)}/${leg.run.run.serviceDate}` }, `${leg.run.line} ${leg.run.trainNumber}`),
            ` ${board.station.name} `, stopTime(board), ` → ${alight.station.name} `, stopTime(alight, "Arrival"),
            " ", platform(board), " ", status(leg.run, board));
        }))))));
  };
  main.append(form(t("journeys.title"), [
    field(t("journeys.from"), { name: "fromStationId", options, value: query.from || "MALPENSA_T1", required: true }),
    field(t("journeys.to"), { name: "toStationId", options, value: query.to || "MI_CENTRALE", required: true }),
    field(t("journeys.after"), { name: "after", type: "datetime-local" }, t("journeys.afterHint")),
  ], t("journeys.search"), search, { id: "journey-form", class: "inline" }), results);
}

export async function showTrip(main, { params }) {
  const ref = { tripId: params.trip, serviceDate: params.date };
  let answer;
  try {
    answer = await api("GET", runPath(ref));
  } catch (error) {
    main.append(failure(error));
    return;
  }
  const run = answer.run;
  const followed = await followedKeys().catch(() => new Set());
  main.querySelector("h1").textContent = t("run.title", { train: `${run.line} ${run.trainNumber}`, destination: destination(run) });
  main.append(
    h("p", {}, run.lineName, " · ", calendarDate(run.run.serviceDate), run.cancelled ? h("strong", { class: "status cancelled" }, ` · ${t("run.cancelled")}`) : null),
    followButton(run.run, followed, `${run.line} ${run.trainNumber}`),
    " ", buyLink(run, run.stops[0], `${run.line} ${run.trainNumber}`),
    noticeList(answer.notices, "trip-notices"),
    h("table", { class: "stops" },
      h("caption", {}, t("trip.stops")),
      h("thead", {}, h("tr", {}, ["trip.station", "trip.arrives", "trip.departs", "board.platform", "board.status"].map((key) => h("th", { scope: "col" }, t(key))))),
      h("tbody", {}, run.stops.map((stop) => h("tr", { class: stop.cancelled ? "cancelled" : "" },
        h("th", { scope: "row" }, stop.station.name),
        h("td", {}, stopTime(stop, "Arrival")), h("td", {}, stopTime(stop)),
        h("td", {}, platform(stop)), h("td", {}, status(run, stop)))))));
}
