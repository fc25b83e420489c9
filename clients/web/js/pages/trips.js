// Finding a train between two stations, and one run with all its stops.

import { api, withQuery } from "../api.js";
import { h, replace, field, form, failure, dateTime, fromZonedInput } from "../dom.js";
import { runPath, stopTime, platform, status, followedKeys, followButton, destination } from "./runs.js";

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
    replace(results, h("h2", {}, journeys.length ? "Journeys" : "No journeys found"),
      h("ol", { class: "cards" }, journeys.map((journey) => h("li", { class: "card" },
        h("p", {}, h("strong", {}, dateTime(journey.departure)), " → ", h("strong", {}, dateTime(journey.arrival)),
          journey.legs.length > 1 ? " (one change)" : " (direct)"),
        h("ul", {}, journey.legs.map((leg) => {
          const board = leg.run.stops.find((stop) => stop.sequence === leg.boardSequence) || leg.run.stops[0];
          const alight = leg.run.stops.find((stop) => stop.sequence === leg.alightSequence) || leg.run.stops[leg.run.stops.length - 1];
          return h("li", {},
            h("a", { href: `#/trips/${encodeURIComponent(leg.run.run.tripId)}/${leg.run.run.serviceDate}` }, `${leg.run.line} ${leg.run.trainNumber}`),
            ` ${board.station.name} `, stopTime(board), ` → ${alight.station.name} `, stopTime(alight, "Arrival"),
            " ", platform(board), " ", status(leg.run, board));
        }))))));
  };
  main.append(form("Find a train", [
    field("From", { name: "fromStationId", options, value: query.from || "MALPENSA_T1", required: true }),
    field("To", { name: "toStationId", options, value: query.to || "MI_CENTRALE", required: true }),
    field("Leaving after", { name: "after", type: "datetime-local" }, "Empty: now."),
  ], "Search", search, { id: "journey-form", class: "inline" }), results);
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
  main.querySelector("h1").textContent = `${run.line} ${run.trainNumber} to ${destination(run)}`;
  main.append(
    h("p", {}, run.lineName, " · ", run.run.serviceDate, run.cancelled ? h("strong", { class: "status cancelled" }, " · Cancelled") : null),
    followButton(run.run, followed, `${run.line} ${run.trainNumber}`),
    h("table", { class: "stops" },
      h("caption", {}, "Stops"),
      h("thead", {}, h("tr", {}, ["Station", "Arrives", "Departs", "Platform", "Status"].map((title) => h("th", { scope: "col" }, title)))),
      h("tbody", {}, run.stops.map((stop) => h("tr", { class: stop.cancelled ? "cancelled" : "" },
        h("th", { scope: "row" }, stop.station.name),
        h("td", {}, stopTime(stop, "Arrival")), h("td", {}, stopTime(stop)),
        h("td", {}, platform(stop)), h("td", {}, status(run, stop)))))));
}
