#!/usr/bin/env python3
"""Writes the web app's base map, clients/web/data/base-map.geojson, from data the project
already ships: Milan's nine taxi zones (Services/Dispatch/DemoData/zones.json), and the demo
railway network (Services/Scheduling/DemoNetwork): each line drawn through its stations, and
the stations. No tile server is reachable, so this is what the app's maps are drawn over.

    python3 scripts/web/make_base_map.py          # rewrite the file
    python3 scripts/web/make_base_map.py --check  # fail if the committed file is stale
"""

import csv
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parents[2]
network = root / "Services/Scheduling/DemoNetwork"
output = root / "clients/web/data/base-map.geojson"


def rows(name):
    with open(network / name, newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def build():
    features = []
    zones = json.loads((root / "Services/Dispatch/DemoData/zones.json").read_text())["zones"]
    for zone in zones:
        ring = [[round(lon, 5), round(lat, 5)] for lat, lon in zone["polygon"]]
        ring.append(ring[0])
        features.append({"type": "Feature", "properties": {"kind": "zone", "id": zone["id"], "name": zone["name"]},
                         "geometry": {"type": "Polygon", "coordinates": [ring]}})

    stops = {row["stop_id"]: row for row in rows("stops.txt")}

    def station(stop_id):
        stop = stops[stop_id]
        return stops[stop["parent_station"]] if stop.get("parent_station") else stop

    trips = rows("trips.txt")
    first_trip = {}
    for trip in trips:
        first_trip.setdefault(trip["route_id"], trip["trip_id"])
    calls = {}
    for call in rows("stop_times.txt"):
        calls.setdefault(call["trip_id"], []).append(call)
    for route in rows("routes.txt"):
        trip_id = first_trip.get(route["route_id"])
        if not trip_id:
            continue
        ordered = sorted(calls[trip_id], key=lambda call: int(call["stop_sequence"]))
        line = [[round(float(station(call["stop_id"])["stop_lon"]), 5), round(float(station(call["stop_id"])["stop_lat"]), 5)]
                for call in ordered]
        features.append({"type": "Feature",
                         "properties": {"kind": "railway", "line": route["route_short_name"], "name": route["route_long_name"]},
                         "geometry": {"type": "LineString", "coordinates": line}})

    for stop in stops.values():
        if stop.get("location_type") == "1":
            features.append({"type": "Feature", "properties": {"kind": "station", "id": stop["stop_id"], "name": stop["stop_name"]},
                             "geometry": {"type": "Point", "coordinates": [round(float(stop["stop_lon"]), 5), round(float(stop["stop_lat"]), 5)]}})
    document = {"type": "FeatureCollection", "features": features}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


def main():
    text = build()
    if "--check" in sys.argv:
        if not output.exists() or output.read_text(encoding="utf-8") != text:
            print(f"{output.relative_to(root)} is stale: run scripts/web/make_base_map.py", file=sys.stderr)
            sys.exit(1)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    print(f"wrote {output.relative_to(root)}")


if __name__ == "__main__":
    main()
