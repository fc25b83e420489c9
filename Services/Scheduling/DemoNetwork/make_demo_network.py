"""Writes the demo network, a small GTFS static feed of the Milan area's regional trains, into
this folder: real stations with their real coordinates (each with numbered platforms as child
stops), several lines, and a full day of trips both ways, the last ones running past midnight
(times past 24:00:00, as GTFS writes them). Scheduling loads it at first start through the same
importer as any feed.

    python3 Services/Scheduling/DemoNetwork/make_demo_network.py

The timetable is made up (hourly departures, plausible running times), the stations are not.
"""

import csv
import pathlib

HERE = pathlib.Path(__file__).resolve().parent

# id, code, name, latitude, longitude, platforms
STATIONS = [
    ("MI_CENTRALE", "MICE", "Milano Centrale", 45.48606, 9.20448, 24),
    ("MI_GARIBALDI", "MIPG", "Milano Porta Garibaldi", 45.48456, 9.18735, 20),
    ("MI_CADORNA", "MICA", "Milano Cadorna", 45.46802, 9.17550, 10),
    ("MI_ROGOREDO", "MIRO", "Milano Rogoredo", 45.43350, 9.23870, 8),
    ("MI_LAMBRATE", "MILA", "Milano Lambrate", 45.48470, 9.23710, 12),
    ("MI_BOVISA", "MIBO", "Milano Bovisa", 45.50260, 9.15960, 6),
    ("RHO_FIERA", "RHOF", "Rho Fiera", 45.52180, 9.08790, 6),
    ("SESTO_SG", "SSGI", "Sesto San Giovanni", 45.54080, 9.23830, 6),
    ("MONZA", "MONZ", "Monza", 45.57750, 9.27280, 7),
    ("SARONNO", "SARO", "Saronno", 45.62560, 9.03300, 8),
    ("COMO_SG", "COSG", "Como San Giovanni", 45.80880, 9.07260, 5),
    ("VARESE", "VARE", "Varese", 45.81660, 8.83260, 5),
    ("GALLARATE", "GALL", "Gallarate", 45.65770, 8.79600, 6),
    ("BUSTO_ARSIZIO", "BUST", "Busto Arsizio", 45.61220, 8.85170, 5),
    ("MALPENSA_T1", "MXP1", "Malpensa Aeroporto T1", 45.62700, 8.71120, 4),
    ("MALPENSA_T2", "MXP2", "Malpensa Aeroporto T2", 45.65100, 8.72360, 2),
    ("BERGAMO", "BERG", "Bergamo", 45.69060, 9.67550, 6),
    ("TREVIGLIO", "TREV", "Treviglio", 45.51860, 9.59160, 6),
    ("BRESCIA", "BRES", "Brescia", 45.53230, 10.21270, 8),
    ("PAVIA", "PAVI", "Pavia", 45.18880, 9.14460, 6),
    ("LODI", "LODI", "Lodi", 45.30940, 9.49750, 4),
    ("LECCO", "LECC", "Lecco", 45.85580, 9.39370, 6),
]

# id, short name, long name, [(station, minutes from the previous station)], first train number
LINES = [
    ("RE_BERGAMO", "R4", "Milano Centrale - Treviglio - Bergamo",
     [("MI_CENTRALE", 0), ("MI_LAMBRATE", 6), ("TREVIGLIO", 24), ("BERGAMO", 20)], 2600),
    ("RE_BRESCIA", "RE2", "Milano Centrale - Treviglio - Brescia",
     [("MI_CENTRALE", 0), ("MI_LAMBRATE", 6), ("TREVIGLIO", 22), ("BRESCIA", 36)], 2700),
    ("R_LECCO", "R14", "Milano Centrale - Monza - Lecco",
     [("MI_CENTRALE", 0), ("SESTO_SG", 8), ("MONZA", 6), ("LECCO", 32)], 2800),
    ("R_COMO", "RE80", "Milano Porta Garibaldi - Monza - Como San Giovanni",
     [("MI_GARIBALDI", 0), ("MONZA", 12), ("COMO_SG", 28)], 2900),
    ("MXP_CADORNA", "MXP1", "Malpensa Express: Milano Cadorna - Malpensa",
     [("MI_CADORNA", 0), ("MI_BOVISA", 7), ("SARONNO", 16), ("BUSTO_ARSIZIO", 12), ("MALPENSA_T1", 11), ("MALPENSA_T2", 4)], 100),
    ("MXP_CENTRALE", "MXP2", "Malpensa Express: Milano Centrale - Malpensa",
     [("MI_CENTRALE", 0), ("MI_GARIBALDI", 5), ("MI_BOVISA", 7), ("SARONNO", 16), ("MALPENSA_T1", 21), ("MALPENSA_T2", 4)], 200),
    ("S5", "S5", "Varese - Gallarate - Rho Fiera - Milano Porta Garibaldi - Treviglio",
     [("VARESE", 0), ("GALLARATE", 16), ("RHO_FIERA", 24), ("MI_GARIBALDI", 14), ("TREVIGLIO", 38)], 24000),
    ("R_PAVIA", "R35", "Milano Centrale - Milano Rogoredo - Pavia",
     [("MI_CENTRALE", 0), ("MI_ROGOREDO", 10), ("PAVIA", 22)], 10500),
    ("R_LODI", "R38", "Milano Centrale - Milano Rogoredo - Lodi",
     [("MI_CENTRALE", 0), ("MI_ROGOREDO", 10), ("LODI", 18)], 10600),
]

# Departures from each end: hourly from 06:05 to 22:05, and one at 23:35 that runs past midnight.
DEPARTURES = [6 * 60 + 5 + 60 * hour for hour in range(17)] + [23 * 60 + 35]
DWELL = 2  # minutes a train waits at an intermediate stop


def write(name, header, rows):
    with open(HERE / name, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def clock(minutes):
    """GTFS time: hours may pass 24 (the service day started the day before)."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}:00"


def main():
    write("agency.txt", ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"],
          [["TN", "Trenord (demo timetable)", "https://www.trenord.it", "Europe/Rome", "it"]])
    stops = []
    for station, code, name, latitude, longitude, platforms in STATIONS:
        stops.append([station, code, name, f"{latitude:.5f}", f"{longitude:.5f}", 1, "", ""])
        for platform in range(1, platforms + 1):
            stops.append([f"{station}:{platform}", "", f"{name}, binario {platform}", f"{latitude:.5f}", f"{longitude:.5f}",
                          0, station, str(platform)])
    write("stops.txt", ["stop_id", "stop_code", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station",
                        "platform_code"], stops)
    write("routes.txt", ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"],
          [[line, "TN", short, long, 2] for line, short, long, _, _ in LINES])
    write("calendar.txt", ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                           "start_date", "end_date"],
          [["DAILY", 1, 1, 1, 1, 1, 1, 1, "20260101", "20271231"],
           ["WEEKDAYS", 1, 1, 1, 1, 1, 0, 0, "20260101", "20271231"]])
    # Public holidays in Milan: weekday-only trains do not run.
    holidays = ["20261208", "20261225", "20261226", "20270101", "20270106"]
    write("calendar_dates.txt", ["service_id", "date", "exception_type"], [["WEEKDAYS", day, 2] for day in holidays])

    trips, stop_times = [], []
    platforms = {station: count for station, _, _, _, _, count in STATIONS}
    for line_index, (line, short, long, stations, first_number) in enumerate(LINES):
        for direction in (0, 1):
            path = stations if direction == 0 else list(reversed([(s, 0) for s, _ in stations]))
            if direction == 1:
                # Running times of the way back: the same legs, in reverse order.
                legs = [minutes for _, minutes in stations][1:][::-1]
                path = [(path[0][0], 0)] + [(station, legs[i]) for i, (station, _) in enumerate(path[1:])]
            headsign = dict((s, n) for s, _, n, _, _, _ in STATIONS)[path[-1][0]]
            for index, start in enumerate(DEPARTURES):
                number = first_number + 2 * index + direction
                service = "WEEKDAYS" if index % 4 == 3 else "DAILY"
                trip = f"{line}_{number}"
                trips.append([line, service, trip, headsign, str(number), direction])
                time = start
                for sequence, (station, minutes) in enumerate(path, start=1):
                    if sequence > 1:
                        time += minutes
                    arrival = time
                    departure = time if sequence in (1, len(path)) else time + DWELL
                    platform = (line_index * 2 + direction) % platforms[station] + 1
                    stop_times.append([trip, clock(arrival), clock(departure), f"{station}:{platform}", sequence])
                    time = departure
    write("trips.txt", ["route_id", "service_id", "trip_id", "trip_headsign", "trip_short_name", "direction_id"], trips)
    write("stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"], stop_times)


if __name__ == "__main__":
    main()
