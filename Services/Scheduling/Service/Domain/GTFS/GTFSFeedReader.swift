import BinarioDomain
import Foundation

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

    // Every agency of a feed keeps the same time zone (GTFS requires it): the zone the service
    // days' times are read in.
    var agencies: [GTFSFeed.Agency] = []
    for row in try table("agency.txt", ["agency_name", "agency_timezone"])!.rows {
      let timezone = try row.required("agency_timezone")
      guard TimeZone(identifier: timezone) != nil else {
        throw row.error("agency_timezone", "\"\(timezone)\" is not a time zone (an IANA name such as Europe/Rome)")
      }
      if let first = agencies.first, first.timezone != timezone {
        throw row.error("agency_timezone", "\(timezone) differs from the first agency's \(first.timezone); a feed's agencies share one time zone")
      }
      agencies.append(
        .init(id: row["agency_id"], name: try row.required("agency_name"), url: row["agency_url"], timezone: timezone, language: row["agency_lang"])
      )
    }
    guard !agencies.isEmpty else { throw GTFSError(file: "agency.txt", reason: "the feed names no agency") }

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

    var rowsByTrip: [String: [(stopTime: TimedStop, row: CSVTable.Row)]] = [:]
    for row in try table("stop_times.txt", ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"])!.rows {
      let trip = try row.required("trip_id")
      guard tripIDs.contains(trip) else { throw row.error("trip_id", "no trip \(trip)") }
      let stop = try row.required("stop_id")
      guard stopIDs.contains(stop) else { throw row.error("stop_id", "no stop \(stop)") }
      guard let sequence = Int(try row.required("stop_sequence")), sequence >= 0 else {
        throw row.error("stop_sequence", "\"\(row["stop_sequence"])\" is not a non-negative whole number")
      }
      // GTFS lets a stop give one of its two times (both are then that time), or neither: a stop
      // that is no timepoint, whose time is interpolated below.
      let arrivalText = row["arrival_time"].isEmpty ? row["departure_time"] : row["arrival_time"]
      let departureText = row["departure_time"].isEmpty ? row["arrival_time"] : row["departure_time"]
      var timed = TimedStop(sequence: sequence, stopID: stop, distance: Double(row["shape_dist_traveled"]))
      if !arrivalText.isEmpty {
        guard let arrival = ServiceTime(gtfs: arrivalText) else {
          throw row.error("arrival_time", "\"\(arrivalText)\" is not a time (HH:MM:SS, hours past 24 for after midnight)")
        }
        guard let departure = ServiceTime(gtfs: departureText) else {
          throw row.error("departure_time", "\"\(departureText)\" is not a time (HH:MM:SS, hours past 24 for after midnight)")
        }
        guard arrival <= departure else { throw row.error("departure_time", "departure \(departure) is before arrival \(arrival)") }
        timed.times = (arrival, departure)
      }
      rowsByTrip[trip, default: []].append((timed, row))
    }
    // A trip's rows may come in any order in the file; in sequence order, times never go back.
    var stopTimes: [String: [GTFSFeed.StopTime]] = [:]
    for (trip, rows) in rowsByTrip {
      let ordered = rows.sorted { $0.stopTime.sequence < $1.stopTime.sequence }
      for (previous, next) in zip(ordered, ordered.dropFirst()) where next.stopTime.sequence == previous.stopTime.sequence {
        throw next.row.error("stop_sequence", "trip \(trip) has stop_sequence \(next.stopTime.sequence) twice")
      }
      for end in [ordered.first!, ordered.last!] where end.stopTime.times == nil {
        throw end.row.error("arrival_time", "a trip's first and last stops need their times")
      }
      let times = Self.interpolated(ordered.map(\.stopTime))
      for index in ordered.indices.dropFirst() where times[index - 1].departure > times[index].arrival {
        throw ordered[index].row.error(
          "arrival_time",
          "arrival \(times[index].arrival) is before the previous stop's departure \(times[index - 1].departure)"
        )
      }
      stopTimes[trip] = zip(ordered, times).map { stop, time in
        GTFSFeed.StopTime(
          tripID: trip,
          sequence: stop.stopTime.sequence,
          stopID: stop.stopTime.stopID,
          arrival: time.arrival,
          departure: time.departure
        )
      }
    }
    for trip in trips where (stopTimes[trip.id]?.count ?? 0) < 2 {
      throw GTFSError(file: "stop_times.txt", reason: "trip \(trip.id) has \(stopTimes[trip.id]?.count ?? 0) stops; a trip needs at least 2")
    }

    if let frequencies = try table("frequencies.txt", ["trip_id", "start_time", "end_time", "headway_secs"]) {
      try Self.expandFrequencies(frequencies, trips: &trips, stopTimes: &stopTimes)
    }

    return GTFSFeed(
      agencies: agencies,
      stops: stops,
      routes: routes,
      trips: trips,
      stopTimes: stopTimes,
      calendars: calendars,
      calendarExceptions: exceptions,
      unusedFiles: Set(files.keys).subtracting(Self.readFiles).sorted()
    )
  }

  /// The files the reader reads; any other file of a feed (shapes, fares, transfers...) is
  /// named back to whoever imports it as not used.
  public static let readFiles: Set<String> = Set(Self.requiredFiles).union(["calendar.txt", "calendar_dates.txt", "frequencies.txt"])

  /// A `stop_times.txt` row as read: its times, when it gives them.
  private struct TimedStop {
    var sequence: Int
    var stopID: String
    var distance: Double?
    var times: (arrival: ServiceTime, departure: ServiceTime)?
  }

  /// Every stop's times, those a stop leaves out interpolated between the timepoints either
  /// side (by `shape_dist_traveled` when the three stops give it, else evenly by stop), as
  /// GTFS asks consumers to. The first and last stops have times.
  private static func interpolated(_ stops: [TimedStop]) -> [(arrival: ServiceTime, departure: ServiceTime)] {
    var result: [(arrival: ServiceTime, departure: ServiceTime)] = []
    var before = 0
    for (index, stop) in stops.enumerated() {
      if let times = stop.times {
        result.append(times)
        before = index
        continue
      }
      let after = stops[index...].firstIndex { $0.times != nil }!
      let from = stops[before].times!.departure.secondsSinceServiceDayStart
      let to = stops[after].times!.arrival.secondsSinceServiceDayStart
      var share = Double(index - before) / Double(after - before)
      if let start = stops[before].distance, let here = stop.distance, let end = stops[after].distance, end > start {
        share = min(1, max(0, (here - start) / (end - start)))
      }
      let time = ServiceTime(seconds: from + Int((Double(to - from) * share).rounded()))
      result.append((time, time))
    }
    return result
  }

  /// The most runs a feed's `frequencies.txt` may expand to.
  static let maximumExpandedTrips = 200_000

  /// Replaces each trip `frequencies.txt` names by one trip per start time: from `start_time`,
  /// every `headway_secs`, while before `end_time`, its stops at the template's times shifted
  /// so that the first stop departs at the start time. Both forms of `exact_times` expand
  /// alike: for 1 these are the exact times, for 0 (headway-based service) the times a
  /// traveller may expect a vehicle within a headway of. An expanded trip's id is the
  /// template's and its start time, `STBA-060000`.
  private static func expandFrequencies(
    _ table: CSVTable,
    trips: inout [GTFSFeed.Trip],
    stopTimes: inout [String: [GTFSFeed.StopTime]]
  ) throws(GTFSError) {
    let tripsByID = Dictionary(trips.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var windows: [String: [(start: ServiceTime, end: ServiceTime, headway: Int, row: CSVTable.Row)]] = [:]
    var order: [String] = []
    for row in table.rows {
      let tripID = try row.required("trip_id")
      guard tripsByID[tripID] != nil else { throw row.error("trip_id", "no trip \(tripID)") }
      guard let start = ServiceTime(gtfs: try row.required("start_time")) else {
        throw row.error("start_time", "\"\(row["start_time"])\" is not a time (HH:MM:SS)")
      }
      guard let end = ServiceTime(gtfs: try row.required("end_time")) else {
        throw row.error("end_time", "\"\(row["end_time"])\" is not a time (HH:MM:SS)")
      }
      guard start < end else { throw row.error("end_time", "end_time \(end) is not after start_time \(start)") }
      guard let headway = Int(try row.required("headway_secs")), headway > 0 else {
        throw row.error("headway_secs", "\"\(row["headway_secs"])\" is not a positive number of seconds")
      }
      guard ["", "0", "1"].contains(row["exact_times"]) else {
        throw row.error("exact_times", "exact_times must be 0, 1 or empty, not \"\(row["exact_times"])\"")
      }
      if windows[tripID] == nil { order.append(tripID) }
      windows[tripID, default: []].append((start, end, headway, row))
    }
    var ids = Set(trips.map(\.id))
    var expandedTrips: [GTFSFeed.Trip] = []
    var total = 0
    for tripID in order {
      let template = tripsByID[tripID]!
      let templateStops = stopTimes.removeValue(forKey: tripID)!
      ids.remove(tripID)
      let firstDeparture = templateStops[0].departure.secondsSinceServiceDayStart
      let sorted = windows[tripID]!.sorted { $0.start < $1.start }
      for (previous, next) in zip(sorted, sorted.dropFirst()) where next.start < previous.end {
        throw next.row.error("start_time", "trip \(tripID)'s windows \(previous.start)-\(previous.end) and \(next.start)-\(next.end) overlap")
      }
      for window in sorted {
        var start = window.start.secondsSinceServiceDayStart
        while start < window.end.secondsSinceServiceDayStart {
          total += 1
          guard total <= Self.maximumExpandedTrips else {
            throw window.row.error("headway_secs", "frequencies.txt expands to more than \(Self.maximumExpandedTrips) trips")
          }
          let shift = start - firstDeparture
          guard templateStops.last!.arrival.secondsSinceServiceDayStart + shift < 48 * 3600 else {
            throw window.row.error("end_time", "trip \(tripID) starting at \(ServiceTime(seconds: start)) would run past 47:59:59")
          }
          let compact = ServiceTime(seconds: start).description.replacingOccurrences(of: ":", with: "")
          let id = "\(tripID)-\(compact)"
          guard ids.insert(id).inserted else { throw window.row.error("trip_id", "the expanded trip \(id) is already a trip") }
          var trip = template
          trip.id = id
          expandedTrips.append(trip)
          stopTimes[id] = templateStops.map { stop in
            var moved = stop
            moved.tripID = id
            moved.arrival = ServiceTime(seconds: stop.arrival.secondsSinceServiceDayStart + shift)
            moved.departure = ServiceTime(seconds: stop.departure.secondsSinceServiceDayStart + shift)
            return moved
          }
          start += window.headway
        }
      }
    }
    trips.removeAll { windows[$0.id] != nil }
    trips.append(contentsOf: expandedTrips)
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
