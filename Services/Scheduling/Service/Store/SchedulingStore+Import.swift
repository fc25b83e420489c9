import Foundation
import GRDB

extension SchedulingStore {
  /// Replaces the whole timetable with `feed`, in one transaction: readers see the old
  /// timetable or the new one, never a mix, and a failure leaves the old one as it was.
  ///
  /// A platform stop (a stop with a parent station) becomes its station plus its
  /// `platform_code`; a trip stop at a station itself has no platform. Live changes already
  /// recorded stay: they belong to runs, which a new timetable may still have.
  @discardableResult
  public func replaceTimetable(with feed: GTFSFeed, source: String, importedAt: Double) throws -> TimetableImportSummary {
    defer {
      trips.invalidate()
      timetableChanged()
    }
    return try self.pool.write { db in try self.replaceTimetableRecorded(db, with: feed, source: source, importedAt: importedAt) }
  }

  /// ``replaceTimetable(with:source:importedAt:)`` without blocking the caller's thread.
  @discardableResult
  public func replacingTimetable(with feed: GTFSFeed, source: String, importedAt: Double) async throws -> TimetableImportSummary {
    try await writingTrips { db in try self.replaceTimetableRecorded(db, with: feed, source: source, importedAt: importedAt) }
  }

  /// The replacement and its `TimetableReplaced` event, in `db`'s transaction.
  private func replaceTimetableRecorded(
    _ db: Database,
    with feed: GTFSFeed,
    source: String,
    importedAt: Double
  ) throws -> TimetableImportSummary {
    let summary = try Self.replaceTimetable(db, with: feed, source: source, importedAt: importedAt)
    try recordTimetableReplaced(summary, at: Date(timeIntervalSince1970: importedAt), db)
    return summary
  }

  static func replaceTimetable(_ db: Database, with feed: GTFSFeed, source: String, importedAt: Double) throws -> TimetableImportSummary {
    do {
      for table in ["trip_stop", "trip", "service_day", "run_exclusion", "line", "platform_stop", "station", "agency", "timetable_import"] {
        try db.execute(sql: "DELETE FROM \(table)")
      }
      for (position, agency) in feed.agencies.enumerated() {
        try db.execute(
          sql: "INSERT INTO agency (position, id, name, url, timezone, language) VALUES (?, ?, ?, ?, ?, ?)",
          arguments: [position, agency.id, agency.name, agency.url, agency.timezone, agency.language]
        )
      }
      var stationOf: [String: (station: String, platform: String)] = [:]
      var stations = 0
      for stop in feed.stops where stop.parentStation == nil {
        try db.execute(
          sql: "INSERT INTO station (id, code, name, latitude, longitude) VALUES (?, ?, ?, ?, ?)",
          arguments: [stop.id, stop.code, stop.name, stop.latitude, stop.longitude]
        )
        stationOf[stop.id] = (stop.id, "")
        stations += 1
      }
      for stop in feed.stops {
        guard let parent = stop.parentStation else { continue }
        let platform = stop.platformCode ?? ""
        try db.execute(
          sql: "INSERT INTO platform_stop (stop_id, station_id, platform) VALUES (?, ?, ?)",
          arguments: [stop.id, parent, platform]
        )
        stationOf[stop.id] = (parent, platform)
      }
      for route in feed.routes {
        try db.execute(
          sql: "INSERT INTO line (id, short_name, long_name, agency_id, route_type) VALUES (?, ?, ?, ?, ?)",
          arguments: [route.id, route.shortName, route.longName, route.agencyID, route.type]
        )
      }
      var serviceDays = 0
      for serviceID in Set(feed.calendars.map(\.serviceID)).union(feed.calendarExceptions.map(\.serviceID)) {
        for day in feed.serviceDays(of: serviceID) {
          try db.execute(sql: "INSERT INTO service_day (service_id, day) VALUES (?, ?)", arguments: [serviceID, day])
          serviceDays += 1
        }
      }
      var tripStops = 0
      let insertStop = try db.makeStatement(
        sql: "INSERT INTO trip_stop (trip_id, sequence, station_id, platform, arrival, departure) VALUES (?, ?, ?, ?, ?, ?)"
      )
      for trip in feed.trips {
        try db.execute(
          sql: "INSERT INTO trip (id, line_id, service_id, train_number, headsign) VALUES (?, ?, ?, ?, ?)",
          arguments: [trip.id, trip.routeID, trip.serviceID, trip.shortName, trip.headsign]
        )
        for stopTime in feed.stopTimes[trip.id] ?? [] {
          let place = stationOf[stopTime.stopID] ?? (stopTime.stopID, "")
          try insertStop.execute(arguments: [
            trip.id, stopTime.sequence, place.station, place.platform,
            stopTime.arrival.secondsSinceServiceDayStart, stopTime.departure.secondsSinceServiceDayStart,
          ])
          tripStops += 1
        }
      }
      try db.execute(
        sql: "INSERT INTO timetable_import (id, imported_at, source, timezone) VALUES (1, ?, ?, ?)",
        arguments: [importedAt, source, feed.timezone]
      )
      return TimetableImportSummary(
        stations: stations,
        lines: feed.routes.count,
        trips: feed.trips.count,
        tripStops: tripStops,
        serviceDays: serviceDays,
        timezone: feed.timezone,
        unusedFiles: feed.unusedFiles
      )
    }
  }

  /// Whether a timetable has been imported (the demo network is loaded at first start otherwise).
  public func hasTimetable() throws -> Bool {
    try self.pool.read { db in try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM timetable_import)")) ?? false }
  }

  /// The zone of the imported feed's agencies; `nil` before any import, or for a timetable
  /// imported before the zone was kept.
  public func timetableZone() throws -> String? {
    try self.pool.read { db in try String.fetchOne(db, sql: "SELECT timezone FROM timetable_import") }
  }

  /// When the timetable last changed: its import, or since then a run added, edited or
  /// removed; `nil` before any import.
  static func timetableModified(_ db: Database) throws -> Date? {
    try Double.fetchOne(db, sql: "SELECT max(imported_at, coalesce(edited_at, 0)) FROM timetable_import")
      .map(Date.init(timeIntervalSince1970:))
  }
}
