import BinarioDomain

/// Reads a GTFS static feed from its files' bytes (a folder's or a zip's entries, by file name)
/// and checks it whole before anything is imported: required files and columns, values, and
/// that every reference resolves. The first fault found is thrown with its file, line and column.
public enum GTFSFeedReader {
  /// The files a feed must have. (`calendar.txt` may be left out when `calendar_dates.txt`
  /// lists every day, as GTFS allows.)
  public static let requiredFiles = ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"]

  public static func read(files: [String: [UInt8]]) throws(GTFSError) -> GTFSFeed {
    for name in Self.requiredFiles where files[name] == nil {
      throw GTFSError(file: name, reason: "the feed has no \(name)")
    }
    guard files["calendar.txt"] != nil || files["calendar_dates.txt"] != nil else {
      throw GTFSError(file: "calendar.txt", reason: "the feed has neither calendar.txt nor calendar_dates.txt")
    }
    func table(_ name: String, _ required: [String]) throws(GTFSError) -> CSVTable? {
      guard let bytes = files[name] else { return nil }
      return try CSVTable(file: name, bytes: bytes, required: required)
    }

    var agencies: [GTFSFeed.Agency] = []
    for row in try table("agency.txt", ["agency_name", "agency_timezone"])!.rows {
      agencies.append(.init(id: row["agency_id"], name: try row.required("agency_name"), timezone: try row.required("agency_timezone")))
    }

    var stops: [GTFSFeed.Stop] = []
    var stopIDs: Set<String> = []
    let stopRows = try table("stops.txt", ["stop_id", "stop_name", "stop_lat", "stop_lon"])!.rows
    for row in stopRows {
      let id = try row.required("stop_id")
      guard stopIDs.insert(id).inserted else { throw row.error("stop_id", "stop \(id) is listed twice") }
      stops.append(
        .init(
          id: id,
          code: row["stop_code"],
          name: try row.required("stop_name"),
          latitude: try Self.coordinate(row, "stop_lat", limit: 90),
          longitude: try Self.coordinate(row, "stop_lon", limit: 180),
          parentStation: row["parent_station"].isEmpty ? nil : row["parent_station"],
          platformCode: row["platform_code"].isEmpty ? nil : row["platform_code"]
        )
      )
    }
    for (stop, row) in zip(stops, stopRows) {
      if let parent = stop.parentStation, !stopIDs.contains(parent) {
        throw row.error("parent_station", "no stop \(parent)")
      }
    }

    let agencyIDs = Set(agencies.map(\.id))
    var routes: [GTFSFeed.Route] = []
    var routeIDs: Set<String> = []
    for row in try table("routes.txt", ["route_id", "route_type"])!.rows {
      let id = try row.required("route_id")
      guard routeIDs.insert(id).inserted else { throw row.error("route_id", "route \(id) is listed twice") }
      let agency = row["agency_id"]
      if !agency.isEmpty, !agencyIDs.contains(agency) { throw row.error("agency_id", "no agency \(agency)") }
      guard !row["route_short_name"].isEmpty || !row["route_long_name"].isEmpty else {
        throw row.error("route_short_name", "a route needs route_short_name or route_long_name")
      }
      guard let type = Int(try row.required("route_type")), type >= 0 else {
        throw row.error("route_type", "\"\(row["route_type"])\" is not a route type")
      }
      routes.append(.init(id: id, agencyID: agency, shortName: row["route_short_name"], longName: row["route_long_name"], type: type))
    }

    var calendars: [GTFSFeed.Calendar] = []
    let weekdayColumns = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    if let calendarTable = try table("calendar.txt", ["service_id"] + weekdayColumns + ["start_date", "end_date"]) {
      for row in calendarTable.rows {
        var weekdays: [Bool] = []
        for column in weekdayColumns {
          switch row[column] {
          case "1": weekdays.append(true)
          case "0": weekdays.append(false)
          default: throw row.error(column, "\(column) must be 0 or 1, not \"\(row[column])\"")
          }
        }
        let start = try Self.date(row, "start_date")
        let end = try Self.date(row, "end_date")
        guard start <= end else { throw row.error("end_date", "end_date \(end) is before start_date \(start)") }
        calendars.append(.init(serviceID: try row.required("service_id"), weekdays: weekdays, start: start, end: end))
      }
    }
    var exceptions: [GTFSFeed.CalendarException] = []
    if let datesTable = try table("calendar_dates.txt", ["service_id", "date", "exception_type"]) {
      for row in datesTable.rows {
        let added: Bool
        switch row["exception_type"] {
        case "1": added = true
        case "2": added = false
        default: throw row.error("exception_type", "exception_type must be 1 (added) or 2 (removed), not \"\(row["exception_type"])\"")
        }
        exceptions.append(.init(serviceID: try row.required("service_id"), date: try Self.date(row, "date"), added: added))
      }
    }
    let serviceIDs = Set(calendars.map(\.serviceID)).union(exceptions.map(\.serviceID))

    var trips: [GTFSFeed.Trip] = []
    var tripIDs: Set<String> = []
    for row in try table("trips.txt", ["route_id", "service_id", "trip_id"])!.rows {
      let id = try row.required("trip_id")
      guard tripIDs.insert(id).inserted else { throw row.error("trip_id", "trip \(id) is listed twice") }
      let route = try row.required("route_id")
      guard routeIDs.contains(route) else { throw row.error("route_id", "no route \(route)") }
      let service = try row.required("service_id")
      guard serviceIDs.contains(service) else { throw row.error("service_id", "no service \(service) in calendar.txt or calendar_dates.txt") }
      trips.append(.init(id: id, routeID: route, serviceID: service, headsign: row["trip_headsign"], shortName: row["trip_short_name"]))
    }

    var rowsByTrip: [String: [(stopTime: GTFSFeed.StopTime, row: CSVTable.Row)]] = [:]
    for row in try table("stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"])!.rows {
      let trip = try row.required("trip_id")
      guard tripIDs.contains(trip) else { throw row.error("trip_id", "no trip \(trip)") }
      let stop = try row.required("stop_id")
      guard stopIDs.contains(stop) else { throw row.error("stop_id", "no stop \(stop)") }
      guard let sequence = Int(try row.required("stop_sequence")), sequence >= 0 else {
        throw row.error("stop_sequence", "\"\(row["stop_sequence"])\" is not a non-negative whole number")
      }
      // GTFS lets a stop leave out one of the two times; a train stop has both here.
      let arrivalText = row["arrival_time"].isEmpty ? row["departure_time"] : row["arrival_time"]
      let departureText = row["departure_time"].isEmpty ? row["arrival_time"] : row["departure_time"]
      guard let arrival = ServiceTime(gtfs: arrivalText) else {
        throw row.error("arrival_time", "\"\(arrivalText)\" is not a time (HH:MM:SS, hours past 24 for after midnight)")
      }
      guard let departure = ServiceTime(gtfs: departureText) else {
        throw row.error("departure_time", "\"\(departureText)\" is not a time (HH:MM:SS, hours past 24 for after midnight)")
      }
      guard arrival <= departure else { throw row.error("departure_time", "departure \(departure) is before arrival \(arrival)") }
      rowsByTrip[trip, default: []].append(
        (.init(tripID: trip, sequence: sequence, stopID: stop, arrival: arrival, departure: departure), row)
      )
    }
    // A trip's rows may come in any order in the file; in sequence order, times never go back.
    var stopTimes: [String: [GTFSFeed.StopTime]] = [:]
    for (trip, rows) in rowsByTrip {
      let ordered = rows.sorted { $0.stopTime.sequence < $1.stopTime.sequence }
      for (previous, next) in zip(ordered, ordered.dropFirst()) {
        guard next.stopTime.sequence != previous.stopTime.sequence else {
          throw next.row.error("stop_sequence", "trip \(trip) has stop_sequence \(next.stopTime.sequence) twice")
        }
        guard previous.stopTime.departure <= next.stopTime.arrival else {
          throw next.row.error(
            "arrival_time",
            "arrival \(next.stopTime.arrival) is before the previous stop's departure \(previous.stopTime.departure)"
          )
        }
      }
      stopTimes[trip] = ordered.map(\.stopTime)
    }
    for trip in trips where (stopTimes[trip.id]?.count ?? 0) < 2 {
      throw GTFSError(file: "stop_times.txt", reason: "trip \(trip.id) has \(stopTimes[trip.id]?.count ?? 0) stops; a trip needs at least 2")
    }

    return GTFSFeed(
      agencies: agencies,
      stops: stops,
      routes: routes,
      trips: trips,
      stopTimes: stopTimes,
      calendars: calendars,
      calendarExceptions: exceptions
    )
  }

  private static func coordinate(_ row: CSVTable.Row, _ column: String, limit: Double) throws(GTFSError) -> Double {
    guard let value = Double(try row.required(column)), value.isFinite, abs(value) <= limit else {
      throw row.error(column, "\"\(row[column])\" is not a coordinate between -\(Int(limit)) and \(Int(limit))")
    }
    return value
  }

  private static func date(_ row: CSVTable.Row, _ column: String) throws(GTFSError) -> ServiceDate {
    guard let date = ServiceDate(gtfs: try row.required(column)) else {
      throw row.error(column, "\"\(row[column])\" is not a date (YYYYMMDD)")
    }
    return date
  }
}
