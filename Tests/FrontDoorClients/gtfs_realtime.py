"""Fetches the suite's GTFS-realtime feed as a standard consumer does (a plain HTTPS GET of
/gtfs-rt/feed, application/x-protobuf, If-Modified-Since) and decodes it with MobilityData's
gtfs-realtime-bindings after each kind of change an admin makes through the HTTP door: a delay,
an earlier departure, a platform change, a cancellation from a stop, a whole cancellation, and
a service notice. After each, the feed is checked against the static GTFS feed the suite
publishes at /gtfs/feed.zip (itself checked against the demo GTFS folder it imported: the same
trips, stops and routes) with these rules of MobilityData's gtfs-realtime-validator:

  E001 timestamps are POSIX seconds          E032 an alert has informed entities
  E002 stop_time_updates sorted by sequence  E033 each informed entity has a specifier
  E003 trip_ids exist in the GTFS            E036 no two updates share a stop_sequence
  E004 route_ids exist in the GTFS           E038 header version is "2.0"
  E011 stop_ids exist in the GTFS            E039 FULL_DATASET has no is_deleted
  E012 header timestamp >= every other       E040 each update has a stop_sequence
  E021 start_date is YYYYMMDD                E041 a trip update has updates unless CANCELED
  E022 times increase along the trip         E043/E044 an update has arrival or departure delays
  E026 vehicle positions are on the Earth    E048/E049 header timestamp and incrementality
  E035 a trip belongs to its route_id        E050 no timestamp in the future
  E051 stop_sequences exist in the trip      E052 vehicle ids are unique

and, beyond the validator: one TripUpdate per trip and service date, entity ids the same from
one fetch to the next, the JSON form for people, and 304 Not Modified for an up-to-date copy of
either feed.

    .tools/venv/bin/python Tests/FrontDoorClients/gtfs_realtime.py --url https://localhost:7443 \
        --ca .dev/certs/ca.pem --admin-email admin@binario.local --admin-password ... \
        --gtfs Services/Scheduling/DemoNetwork
"""

import argparse
import csv
import io
import json
import ssl
import sys
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from email.utils import parsedate_to_datetime

from google.transit import gtfs_realtime_pb2


class Door:
    def __init__(self, url, ca):
        self.url = url
        self.context = ssl.create_default_context(cafile=ca)
        self.token = None

    def call(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, context=self.context, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, method, path, body=None):
        status, _, data = self.call(method, path, body)
        assert status == 200, f"{method} {path}: {status} {data[:400]!r}"
        return json.loads(data or b"{}")


def read_gtfs(open_file):
    """A GTFS feed's trips, routes, stops and stop times; `open_file(name)` gives a file's text."""
    def rows(name):
        with open_file(name) as file:
            return list(csv.DictReader(file))
    trips = {row["trip_id"]: row["route_id"] for row in rows("trips.txt")}
    sequences = {}
    times = {}
    for row in rows("stop_times.txt"):
        sequences.setdefault(row["trip_id"], set()).add(int(row["stop_sequence"]))
        times.setdefault(row["trip_id"], {})[int(row["stop_sequence"])] = (seconds(row["arrival_time"]), seconds(row["departure_time"]))
    return {
        "trips": trips,
        "routes": {row["route_id"] for row in rows("routes.txt")},
        "stops": {row["stop_id"] for row in rows("stops.txt")},
        "sequences": sequences,
        "times": times,
    }


def seconds(clock):
    hours, minutes, secs = (int(part) for part in clock.split(":"))
    return hours * 3600 + minutes * 60 + secs


def increasing_times(entity_id, update, planned):
    """E022: with the delays propagated as the specification says (a stop's delay holds for the
    following stops up to the next update), each stop's times never go back."""
    updates = {stop.stop_sequence: stop for stop in update.stop_time_update}
    delay = 0
    last = None
    problems = []
    for sequence in sorted(planned):
        arrival, departure = planned[sequence]
        stop = updates.get(sequence)
        if stop is not None and stop.schedule_relationship == stop.SKIPPED:
            continue
        arrival_delay = stop.arrival.delay if stop is not None and stop.HasField("arrival") else delay
        departure_delay = stop.departure.delay if stop is not None and stop.HasField("departure") else arrival_delay
        delay = departure_delay
        expected = (arrival + arrival_delay, departure + departure_delay)
        if expected[1] < expected[0] or (last is not None and expected[0] < last):
            problems.append(f"E022 {entity_id} times go back at stop {sequence}")
        last = expected[1]
    return problems


def check_feed(feed, gtfs, now):
    """The validator's rules named above; returns the problems found."""
    problems = []
    header = feed.header
    if header.gtfs_realtime_version != "2.0":
        problems.append(f"E038 version {header.gtfs_realtime_version!r}")
    if not header.HasField("timestamp") or header.timestamp == 0:
        problems.append("E048 no header timestamp")
    if not header.HasField("incrementality"):
        problems.append("E049 no incrementality")
    if header.timestamp > now + 60:
        problems.append("E050 header timestamp in the future")
    if header.timestamp > 10**10:
        problems.append("E001 header timestamp is not POSIX seconds")
    trips_seen = set()
    vehicle_ids = set()
    for entity in feed.entity:
        if entity.HasField("is_deleted"):
            problems.append(f"E039 {entity.id} has is_deleted in a FULL_DATASET feed")
        if entity.HasField("trip_update"):
            update = entity.trip_update
            trip = update.trip
            key = (trip.trip_id, trip.start_date)
            if key in trips_seen:
                problems.append(f"two TripUpdates for {key}")
            trips_seen.add(key)
            if trip.trip_id not in gtfs["trips"]:
                problems.append(f"E003 trip {trip.trip_id} not in the GTFS")
            if trip.route_id not in gtfs["routes"]:
                problems.append(f"E004 route {trip.route_id} not in the GTFS")
            elif gtfs["trips"].get(trip.trip_id) not in (None, trip.route_id):
                problems.append(f"E035 trip {trip.trip_id} is not of route {trip.route_id}")
            if len(trip.start_date) != 8 or not trip.start_date.isdigit():
                problems.append(f"E021 start_date {trip.start_date!r}")
            if update.timestamp > header.timestamp:
                problems.append(f"E012 {entity.id} timestamp after the header's")
            canceled = trip.schedule_relationship == gtfs_realtime_pb2.TripDescriptor.CANCELED
            if not canceled and not update.stop_time_update:
                problems.append(f"E041 {entity.id} has no stop_time_update")
            sequences = [stop.stop_sequence for stop in update.stop_time_update]
            if sequences != sorted(sequences):
                problems.append(f"E002 {entity.id} updates not sorted: {sequences}")
            if len(set(sequences)) != len(sequences):
                problems.append(f"E036 {entity.id} repeats a stop_sequence")
            known = gtfs["sequences"].get(trip.trip_id, set())
            problems += increasing_times(entity.id, update, gtfs["times"].get(trip.trip_id, {}))
            for stop in update.stop_time_update:
                if not stop.HasField("stop_sequence"):
                    problems.append(f"E040 {entity.id} update without stop_sequence")
                elif stop.stop_sequence not in known:
                    problems.append(f"E051 {entity.id} stop_sequence {stop.stop_sequence} not in the trip")
                if stop.stop_time_properties.assigned_stop_id and stop.stop_time_properties.assigned_stop_id not in gtfs["stops"]:
                    problems.append(f"E011 assigned stop {stop.stop_time_properties.assigned_stop_id} not in the GTFS")
                if stop.schedule_relationship == stop.SKIPPED:
                    continue
                if not stop.HasField("arrival") and not stop.HasField("departure"):
                    problems.append(f"E043 {entity.id} update at {stop.stop_sequence} has neither arrival nor departure")
                for event in (stop.arrival, stop.departure):
                    if event.ByteSize() and not event.HasField("delay") and not event.HasField("time"):
                        problems.append(f"E044 {entity.id} event without delay or time")
        if entity.HasField("vehicle"):
            vehicle = entity.vehicle
            if not -90 <= vehicle.position.latitude <= 90 or not -180 <= vehicle.position.longitude <= 180:
                problems.append(f"E026 {entity.id} position off the Earth")
            if vehicle.vehicle.id in vehicle_ids:
                problems.append(f"E052 vehicle id {vehicle.vehicle.id} repeated")
            vehicle_ids.add(vehicle.vehicle.id)
            if vehicle.trip.trip_id not in gtfs["trips"]:
                problems.append(f"E003 vehicle trip {vehicle.trip.trip_id} not in the GTFS")
            if vehicle.current_stop_sequence not in gtfs["sequences"].get(vehicle.trip.trip_id, set()):
                problems.append(f"E051 vehicle stop_sequence {vehicle.current_stop_sequence} not in its trip")
            if vehicle.timestamp > header.timestamp:
                problems.append(f"E012 {entity.id} timestamp after the header's")
        if entity.HasField("alert"):
            alert = entity.alert
            if not alert.informed_entity:
                problems.append(f"E032 {entity.id} has no informed entity")
            for informed in alert.informed_entity:
                if not (informed.route_id or informed.stop_id or informed.agency_id or informed.HasField("trip")):
                    problems.append(f"E033 {entity.id} informs an entity without a specifier")
                if informed.route_id and informed.route_id not in gtfs["routes"]:
                    problems.append(f"E004 alert route {informed.route_id} not in the GTFS")
                if informed.stop_id and informed.stop_id not in gtfs["stops"]:
                    problems.append(f"E011 alert stop {informed.stop_id} not in the GTFS")
            for period in alert.active_period:
                if period.start > 10**10 or period.end > 10**10:
                    problems.append(f"E001 {entity.id} active period is not POSIX seconds")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--admin-email", required=True)
    parser.add_argument("--admin-password", required=True)
    parser.add_argument("--gtfs", required=True, help="the GTFS folder the suite imported")
    arguments = parser.parse_args()
    door = Door(arguments.url, arguments.ca)

    # The static feed the suite publishes, as a consumer loads it next to the realtime one.
    status, headers, data = door.call("GET", "/gtfs/feed.zip")
    assert status == 200 and headers.get("Content-Type") == "application/zip", (status, headers.get("Content-Type"), data[:200])
    archive = zipfile.ZipFile(io.BytesIO(data))
    assert archive.testzip() is None, "a damaged entry in the static feed"
    names = set(archive.namelist())
    assert {"agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar_dates.txt", "feed_info.txt"} <= names, names
    gtfs = read_gtfs(lambda name: io.TextIOWrapper(archive.open(name), encoding="utf-8", newline=""))
    imported = read_gtfs(lambda name: open(f"{arguments.gtfs}/{name}", newline="", encoding="utf-8"))
    # The same stations, platforms and lines; every imported trip with its times (runs other
    # tests added, as `<trip>@<date>` or new trips, come on top).
    for kind in ("routes", "stops"):
        assert gtfs[kind] == imported[kind], f"the static feed's {kind} differ from the imported timetable's"
    for trip, route in imported["trips"].items():
        assert gtfs["trips"].get(trip) == route, f"trip {trip} of {route} is not in the static feed"
        assert gtfs["times"][trip] == imported["times"][trip], f"trip {trip}'s times differ in the static feed"
    status, _, _ = door.call("GET", "/gtfs/feed.zip", headers={"If-Modified-Since": headers["Last-Modified"]})
    assert status == 304, f"an up-to-date static feed answered {status}"

    def fetch(step):
        status, headers, data = door.call("GET", "/gtfs-rt/feed")
        assert status == 200, f"{step}: the feed answered {status} {data[:300]!r}"
        assert headers.get("Content-Type") == "application/x-protobuf", f"{step}: {headers.get('Content-Type')}"
        feed = gtfs_realtime_pb2.FeedMessage()
        feed.ParseFromString(data)
        problems = check_feed(feed, gtfs, time.time())
        assert not problems, f"{step}: " + "; ".join(problems)
        return feed, headers

    # Anyone may read the feed; the changes are the admin's.
    before, _ = fetch("before any change")
    tokens = door.json("POST", "/v1/sessions", {"email": arguments.admin_email, "password": arguments.admin_password})["tokens"]
    door.token = tokens["accessToken"]

    board = door.json("GET", "/v1/stations/MI_CENTRALE/departures?limit=20")
    bergamo = [d["run"] for d in board["departures"] if [s["station"]["stationId"] for s in d["run"]["stops"]][-1] == "BERGAMO"]
    others = [d["run"] for d in board["departures"] if d["run"] not in bergamo]
    assert len(bergamo) >= 2 and others, f"the board has too few runs: {len(bergamo)} to Bergamo, {len(others)} others"

    def path(run):
        return f"/v1/admin/trips/{run['run']['tripId']}/runs/{run['run']['serviceDate']}"

    def change(run, verb, body, step):
        body = dict(body, reason=step, idempotencyKey=str(uuid.uuid4()))
        answer = door.json("POST", f"{path(run)}:{verb}", body)
        feed, headers = fetch(step)
        return answer, feed, headers

    def entity_of(feed, run):
        date = run["run"]["serviceDate"].replace("-", "")
        found = [e for e in feed.entity if e.HasField("trip_update") and e.trip_update.trip.trip_id == run["run"]["tripId"]
                 and e.trip_update.trip.start_date == date]
        assert len(found) == 1, f"{len(found)} TripUpdates for {run['run']['tripId']}"
        return found[0]

    first, second, third = bergamo[0], bergamo[1], others[0]
    _, feed, _ = change(first, "delay", {"fromSequence": 2, "minutes": 8}, "a delay from Lambrate")
    update = entity_of(feed, first).trip_update
    assert [s.stop_sequence for s in update.stop_time_update][0] == 2 and update.stop_time_update[0].departure.delay == 480, update
    _, feed, _ = change(second, "delay", {"fromSequence": 3, "minutes": -1}, "an earlier departure from Treviglio")
    assert entity_of(feed, second).trip_update.stop_time_update[0].departure.delay == -60
    _, feed, _ = change(first, "changePlatform", {"sequence": 1, "platform": "2"}, "a platform change")
    moved = entity_of(feed, first).trip_update.stop_time_update[0]
    assert moved.stop_time_properties.assigned_stop_id == "MI_CENTRALE:2", moved
    _, feed, _ = change(second, "cancel", {"fromSequence": 4}, "a cancellation from Bergamo")
    skipped = [s for s in entity_of(feed, second).trip_update.stop_time_update if s.schedule_relationship == s.SKIPPED]
    assert [s.stop_sequence for s in skipped] == [4], skipped
    # A cancelled stop takes no delay.
    status, _, refusal = door.call("POST", f"{path(second)}:delay", {"fromSequence": 4, "minutes": 3, "reason": "x"})
    assert status == 400 and b"FAILED_PRECONDITION" in refusal, (status, refusal)
    _, feed, _ = change(third, "cancel", {"fromSequence": 0}, "a whole cancellation")
    assert entity_of(feed, third).trip_update.trip.schedule_relationship == gtfs_realtime_pb2.TripDescriptor.CANCELED

    ends = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 86400))
    notice = door.json("POST", "/v1/admin/service-notices", {
        "texts": [{"language": "it", "title": "Sciopero", "description": "Treni a rischio"},
                  {"language": "en", "title": "Strike", "description": "Trains at risk"}],
        "lineIds": ["RE_BERGAMO"], "stationIds": ["TREVIGLIO"], "endsAt": ends,
        "cause": "NOTICE_CAUSE_STRIKE", "effect": "NOTICE_EFFECT_REDUCED_SERVICE", "idempotencyKey": str(uuid.uuid4()),
    })["notice"]
    feed, headers = fetch("a service notice")
    alerts = [e for e in feed.entity if e.id == f"alert:{notice['noticeId']}"]
    assert len(alerts) == 1, [e.id for e in feed.entity]
    alert = alerts[0].alert
    assert alert.cause == gtfs_realtime_pb2.Alert.STRIKE and alert.effect == gtfs_realtime_pb2.Alert.REDUCED_SERVICE, alert
    assert {(t.language, t.text) for t in alert.header_text.translation} == {("it", "Sciopero"), ("en", "Strike")}, alert
    assert {e.route_id for e in alert.informed_entity if e.route_id} == {"RE_BERGAMO"}
    assert {e.stop_id for e in alert.informed_entity if e.stop_id} == {"TREVIGLIO"}
    # The board of a station on the line shows it.
    shown = door.json("GET", "/v1/stations/BERGAMO/departures?limit=5").get("notices", [])
    assert [n["noticeId"] for n in shown] == [notice["noticeId"]], shown

    # Fetched again: the same entity ids; an up-to-date copy is not sent again.
    again, _ = fetch("fetched again")
    ids = [e.id for e in feed.entity if not e.HasField("vehicle")]
    assert ids == [e.id for e in again.entity if not e.HasField("vehicle")], "entity ids changed between fetches"
    modified = headers.get("Last-Modified")
    assert modified and parsedate_to_datetime(modified).timestamp() <= time.time() + 1, headers
    status, later, _ = door.call("GET", "/gtfs-rt/feed", headers={"If-Modified-Since": time.strftime(
        "%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 5))})
    assert status == 304, f"an up-to-date copy: {status}"
    status, _, _ = door.call("GET", "/gtfs-rt/feed", headers={"If-Modified-Since": "Thu, 01 Jan 2015 00:00:00 GMT"})
    assert status == 200, f"an old copy: {status}"
    # For people: the same feed as JSON.
    status, headers, data = door.call("GET", "/gtfs-rt/feed?format=json")
    assert status == 200 and headers.get("Content-Type") == "application/json", (status, headers)
    as_json = json.loads(data)
    assert as_json["header"]["gtfsRealtimeVersion"] == "2.0" and len(as_json["entity"]) == len(again.entity), as_json["header"]
    print(f"ok: {len(again.entity)} entities after six kinds of change, every named rule holds, 304 and JSON answered")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
