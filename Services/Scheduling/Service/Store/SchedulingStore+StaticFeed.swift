import Foundation
import GRDB

extension SchedulingStore {
  /// The imported timetable as a GTFS feed again, for the static feed consumers download, with
  /// the ids the timetable and the realtime feed use: a station and its platform stops; a trip
  /// stop at the platform stop of its station and platform (the station itself when it has
  /// none); every service day listed in `calendar_dates.txt`, and runs an admin removed from a
  /// trip's days left out (the trip gets a service of its own, `<service>~<trip>`, without
  /// them). With when the timetable last changed; `nil` before any import.
  public func staticFeed(configuredZone: String) throws -> (feed: GTFSFeed, modified: Date)? {
    try self.pool.read { db in
      guard let imported = try Row.fetchOne(db, sql: "SELECT timezone FROM timetable_import"),
        let modified = try Self.timetableModified(db)
      else { return nil }
      let zone: String = imported["timezone"] ?? configuredZone
      var agencies = try Row.fetchAll(db, sql: "SELECT id, name, url, timezone, language FROM agency ORDER BY position").map {
        GTFSFeed.Agency(id: $0["id"], name: $0["name"], url: $0["url"], timezone: $0["timezone"], language: $0["language"])
      }
      // A timetable imported before agencies were kept: one agency in the zone it is read in.
      if agencies.isEmpty { agencies = [.init(id: "", name: "Binario timetable", url: "", timezone: zone, language: "")] }

      var stops: [GTFSFeed.Stop] = []
      var coordinates: [String: (latitude: Double, longitude: Double, name: String)] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT id, code, name, latitude, longitude FROM station ORDER BY id") {
        let stop = GTFSFeed.Stop(
          id: row["id"],
          code: row["code"],
          name: row["name"],
          latitude: row["latitude"],
          longitude: row["longitude"],
          parentStation: nil,
          platformCode: nil
        )
        coordinates[stop.id] = (stop.latitude, stop.longitude, stop.name)
        stops.append(stop)
      }
      var platformStop: [PlatformKey: String] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT stop_id, station_id, platform FROM platform_stop ORDER BY stop_id") {
        let stationID: String = row["station_id"]
        let station = coordinates[stationID] ?? (0, 0, stationID)
        let stop = GTFSFeed.Stop(
          id: row["stop_id"],
          code: "",
          name: station.name,
          latitude: station.latitude,
          longitude: station.longitude,
          parentStation: stationID,
          platformCode: row["platform"]
        )
        platformStop[PlatformKey(stationID: stationID, platform: stop.platformCode!)] = stop.id
        stops.append(stop)
      }
      let routes = try Row.fetchAll(db, sql: "SELECT id, agency_id, short_name, long_name, route_type FROM line ORDER BY id").map {
        GTFSFeed.Route(id: $0["id"], agencyID: $0["agency_id"], shortName: $0["short_name"], longName: $0["long_name"], type: $0["route_type"])
      }
      var trips = try Row.fetchAll(db, sql: "SELECT id, line_id, service_id, train_number, headsign FROM trip ORDER BY id").map {
        GTFSFeed.Trip(id: $0["id"], routeID: $0["line_id"], serviceID: $0["service_id"], headsign: $0["headsign"], shortName: $0["train_number"])
      }
      var stopTimes: [String: [GTFSFeed.StopTime]] = [:]
      let stopRows = try Row.fetchCursor(
        db,
        sql: "SELECT trip_id, sequence, station_id, platform, arrival, departure FROM trip_stop ORDER BY trip_id, sequence"
      )
      while let row = try stopRows.next() {
        let tripID: String = row["trip_id"]
        let stationID: String = row["station_id"]
        stopTimes[tripID, default: []].append(
          GTFSFeed.StopTime(
            tripID: tripID,
            sequence: row["sequence"],
            stopID: platformStop[PlatformKey(stationID: stationID, platform: row["platform"])] ?? stationID,
            arrival: ServiceTime(seconds: row["arrival"]),
            departure: ServiceTime(seconds: row["departure"])
          )
        )
      }
      var daysOf: [String: [Int]] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT service_id, day FROM service_day ORDER BY service_id, day") {
        daysOf[row["service_id"], default: []].append(row["day"])
      }
      var excluded: [String: Set<Int>] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT trip_id, day FROM run_exclusion") {
        excluded[row["trip_id"], default: []].insert(row["day"])
      }
      for index in trips.indices {
        guard let without = excluded[trips[index].id] else { continue }
        let own = "\(trips[index].serviceID)~\(trips[index].id)"
        daysOf[own] = (daysOf[trips[index].serviceID] ?? []).filter { !without.contains($0) }
        trips[index].serviceID = own
      }
      // A service no trip uses any more (every run of it removed) is left out.
      let used = Set(trips.map(\.serviceID))
      let days = daysOf.keys.sorted().filter(used.contains).flatMap { service in
        daysOf[service]!.map { GTFSFeed.CalendarException(serviceID: service, date: ServiceDate(daysSinceEpoch: $0), added: true) }
      }
      let feed = GTFSFeed(
        agencies: agencies,
        stops: stops,
        routes: routes,
        trips: trips,
        stopTimes: stopTimes,
        calendars: [],
        calendarExceptions: days
      )
      return (feed, modified)
    }
  }
}
