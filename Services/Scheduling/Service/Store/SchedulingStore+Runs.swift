import Foundation
import GRDB

/// A run's part of a journey as the timetable plans it: boarding and alighting stops.
public struct PlannedLeg: Sendable, Hashable {
  public var tripID: String
  public var serviceDate: ServiceDate
  public var boardSequence: Int
  public var alightSequence: Int
}

/// What an admin writes for one stop of a run.
public struct RunStopDraft: Sendable, Hashable {
  public var stationID: String
  public var platform: String
  public var arrival: ServiceTime
  public var departure: ServiceTime

  public init(stationID: String, platform: String, arrival: ServiceTime, departure: ServiceTime) {
    self.stationID = stationID
    self.platform = platform
    self.arrival = arrival
    self.departure = departure
  }
}

extension SchedulingStore {
  /// Every line, by short name.
  public func lines() throws -> [Line] {
    try pool.read { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT id, short_name, long_name FROM line ORDER BY short_name, id")).map {
        Line(id: $0["id"], shortName: $0["short_name"], longName: $0["long_name"])
      }
    }
  }

  /// The feed's stop id of each station's platform, keyed by station id and platform.
  public func platformStops() throws -> [PlatformKey: String] {
    try pool.read { db in
      var stops: [PlatformKey: String] = [:]
      for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT stop_id, station_id, platform FROM platform_stop")) {
        stops[PlatformKey(stationID: row["station_id"], platform: row["platform"])] = row["stop_id"]
      }
      return stops
    }
  }

  /// Direct runs from one station to another whose departure is at or after `earliest`
  /// (seconds since the start of `date`'s service day) and within a day of it, earliest arrival
  /// first: runs of `date` and of the day before (still going after midnight).
  public func directLegs(
    from origin: String,
    to destination: String,
    on date: ServiceDate,
    after earliest: Int,
    limit: Int
  )
    throws -> [PlannedLeg]
  {
    let day = date.daysSinceEpoch
    return try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT a.trip_id, d.day, a.sequence AS board, b.sequence AS alight
            FROM trip_stop a
            JOIN trip_stop b ON b.trip_id = a.trip_id AND b.sequence > a.sequence AND b.station_id = ?
            JOIN trip ON trip.id = a.trip_id
            JOIN service_day d ON d.service_id = trip.service_id AND d.day IN (?, ?)
            WHERE a.station_id = ?
              AND a.departure + (d.day - ?) * 86400 BETWEEN ? AND ? + 86400
              AND NOT EXISTS (SELECT 1 FROM run_exclusion e WHERE e.trip_id = trip.id AND e.day = d.day)
            ORDER BY b.arrival + (d.day - ?) * 86400, a.departure + (d.day - ?) * 86400 DESC
            LIMIT ?
            """
        ),
        arguments: [destination, day - 1, day, origin, day, earliest, earliest, day, day, limit]
      ).map {
        PlannedLeg(
          tripID: $0["trip_id"],
          serviceDate: ServiceDate(daysSinceEpoch: $0["day"]),
          boardSequence: $0["board"],
          alightSequence: $0["alight"]
        )
      }
    }
  }

  /// Journeys with one change (at least `minimumTransfer` seconds between the first run's
  /// arrival and the second's departure, at the same station), as `directLegs` chooses runs,
  /// earliest arrival first.
  public func oneChangeLegs(
    from origin: String,
    to destination: String,
    on date: ServiceDate,
    after earliest: Int,
    minimumTransfer: Int,
    limit: Int
  ) throws -> [(PlannedLeg, PlannedLeg)] {
    let day = date.daysSinceEpoch
    return try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT a.trip_id AS trip1, d1.day AS day1, a.sequence AS board1, x1.sequence AS alight1,
                   x2.trip_id AS trip2, d2.day AS day2, x2.sequence AS board2, b.sequence AS alight2,
                   b.arrival + (d2.day - ?) * 86400 AS arrives
            FROM trip_stop a
            JOIN trip t1 ON t1.id = a.trip_id
            JOIN service_day d1 ON d1.service_id = t1.service_id AND d1.day IN (?, ?)
            JOIN trip_stop x1 ON x1.trip_id = a.trip_id AND x1.sequence > a.sequence AND x1.station_id != ?
            JOIN trip_stop x2 ON x2.station_id = x1.station_id AND x2.trip_id != a.trip_id
            JOIN trip_stop b ON b.trip_id = x2.trip_id AND b.sequence > x2.sequence AND b.station_id = ?
            JOIN trip t2 ON t2.id = x2.trip_id
            JOIN service_day d2 ON d2.service_id = t2.service_id AND d2.day IN (?, ?, ?)
            WHERE a.station_id = ?
              AND a.departure + (d1.day - ?) * 86400 BETWEEN ? AND ? + 86400
              AND x2.departure + (d2.day - ?) * 86400 >= x1.arrival + (d1.day - ?) * 86400 + ?
              AND x2.departure + (d2.day - ?) * 86400 <= x1.arrival + (d1.day - ?) * 86400 + 4 * 3600
              AND NOT EXISTS (SELECT 1 FROM trip_stop direct WHERE direct.trip_id = a.trip_id AND direct.station_id = ?)
              AND NOT EXISTS (SELECT 1 FROM run_exclusion e WHERE e.trip_id = t1.id AND e.day = d1.day)
              AND NOT EXISTS (SELECT 1 FROM run_exclusion e WHERE e.trip_id = t2.id AND e.day = d2.day)
            ORDER BY arrives, a.departure + (d1.day - ?) * 86400 DESC
            LIMIT ?
            """
        ),
        arguments: [
          day, day - 1, day, origin, destination, day - 1, day, day + 1, origin, day, earliest, earliest, day, day,
          minimumTransfer, day, day, destination, day, limit * 8,
        ]
      ).map { row in
        (
          PlannedLeg(
            tripID: row["trip1"],
            serviceDate: ServiceDate(daysSinceEpoch: row["day1"]),
            boardSequence: row["board1"],
            alightSequence: row["alight1"]
          ),
          PlannedLeg(
            tripID: row["trip2"],
            serviceDate: ServiceDate(daysSinceEpoch: row["day2"]),
            boardSequence: row["board2"],
            alightSequence: row["alight2"]
          )
        )
      }
    }
  }

  /// How many service days a trip runs on (1 for a run an admin created).
  public func serviceDayCount(tripID: String) throws -> Int {
    try pool.read { db in try Self.serviceDayCount(db, tripID: tripID) }
  }

  static func serviceDayCount(_ db: Database, tripID: String) throws -> Int {
    try Int.fetchOne(
      db.cachedStatement(sql: "SELECT COUNT(*) FROM service_day JOIN trip ON trip.service_id = service_day.service_id WHERE trip.id = ?"),
      arguments: [tripID]
    ) ?? 0
  }

  /// Adds a trip that runs on one date only (its own service), with its stops.
  /// - Throws: ``StoreConflict/duplicate`` when the trip id is taken.
  public func insertRun(
    tripID: String,
    lineID: String,
    trainNumber: String,
    headsign: String,
    on date: ServiceDate,
    stops: [RunStopDraft]
  ) async throws {
    do {
      try await writingTrips { db in
        try Self.insertRun(db, tripID: tripID, lineID: lineID, trainNumber: trainNumber, headsign: headsign, on: date, stops: stops)
      }
    } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
      throw StoreConflict.duplicate
    }
  }

  static func insertRun(
    _ db: Database,
    tripID: String,
    lineID: String,
    trainNumber: String,
    headsign: String,
    on date: ServiceDate,
    stops: [RunStopDraft]
  ) throws {
    let serviceID = "run:\(tripID)"
    try db.execute(
      sql: "INSERT INTO trip (id, line_id, service_id, train_number, headsign) VALUES (?, ?, ?, ?, ?)",
      arguments: [tripID, lineID, serviceID, trainNumber, headsign]
    )
    try db.execute(sql: "INSERT INTO service_day (service_id, day) VALUES (?, ?)", arguments: [serviceID, date.daysSinceEpoch])
    try insertStops(db, tripID: tripID, stops: stops)
  }

  static func insertStops(_ db: Database, tripID: String, stops: [RunStopDraft]) throws {
    let insert = try db.cachedStatement(
      sql: "INSERT INTO trip_stop (trip_id, sequence, station_id, platform, arrival, departure) VALUES (?, ?, ?, ?, ?, ?)"
    )
    for (index, stop) in stops.enumerated() {
      try insert.execute(arguments: [
        tripID, index + 1, stop.stationID, stop.platform, stop.arrival.secondsSinceServiceDayStart,
        stop.departure.secondsSinceServiceDayStart,
      ])
    }
  }

  /// Rewrites a run in place: a trip that runs on that one date only.
  public func rewriteRun(tripID: String, trainNumber: String, headsign: String, stops: [RunStopDraft]?) async throws {
    try await writingTrips { db in
      try db.execute(
        sql: "UPDATE trip SET train_number = ?, headsign = ? WHERE id = ?",
        arguments: [trainNumber, headsign, tripID]
      )
      if let stops {
        try db.execute(sql: "DELETE FROM trip_stop WHERE trip_id = ?", arguments: [tripID])
        try Self.insertStops(db, tripID: tripID, stops: stops)
      }
    }
  }

  /// Takes one date's run out of a trip that runs on other dates too and makes it a trip of its
  /// own (`newTripID`), with its followers and live changes, in one transaction.
  public func splitRun(
    tripID: String,
    on date: ServiceDate,
    into newTripID: String,
    lineID: String,
    trainNumber: String,
    headsign: String,
    stops: [RunStopDraft]
  ) async throws {
    let day = date.daysSinceEpoch
    try await writingTrips { db in
      try db.execute(sql: "INSERT INTO run_exclusion (trip_id, day) VALUES (?, ?)", arguments: [tripID, day])
      try Self.insertRun(db, tripID: newTripID, lineID: lineID, trainNumber: trainNumber, headsign: headsign, on: date, stops: stops)
      try db.execute(
        sql: "UPDATE run_follower SET trip_id = ? WHERE trip_id = ? AND service_day = ?",
        arguments: [newTripID, tripID, day]
      )
      try db.execute(
        sql: "UPDATE run_change SET trip_id = ? WHERE trip_id = ? AND service_day = ?",
        arguments: [newTripID, tripID, day]
      )
    }
  }

  /// Removes the run of `tripID` on `date` and, in the same transaction, tells its followers
  /// with `content` and stops them following. A trip that ran on that date only is deleted.
  public func removeRun(
    tripID: String,
    on date: ServiceDate,
    notifyingFollowersWith content: NotificationContent,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    let day = date.daysSinceEpoch
    try await writingTrips { db in
      if try Self.serviceDayCount(db, tripID: tripID) <= 1 {
        let serviceID = try String.fetchOne(db.cachedStatement(sql: "SELECT service_id FROM trip WHERE id = ?"), arguments: [tripID])
        try db.execute(sql: "DELETE FROM trip WHERE id = ?", arguments: [tripID])
        if let serviceID, serviceID == "run:\(tripID)" {
          try db.execute(sql: "DELETE FROM service_day WHERE service_id = ?", arguments: [serviceID])
        } else {
          try db.execute(sql: "INSERT OR IGNORE INTO run_exclusion (trip_id, day) VALUES (?, ?)", arguments: [tripID, day])
        }
      } else {
        try db.execute(sql: "INSERT OR IGNORE INTO run_exclusion (trip_id, day) VALUES (?, ?)", arguments: [tripID, day])
      }
      let followers = try Self.followers(db, tripID: tripID, day: day)
      let made = try Self.insertNotifications(db, userIDs: followers, content: content, pushOnly: false, at: now)
      try db.execute(sql: "DELETE FROM run_follower WHERE trip_id = ? AND service_day = ?", arguments: [tripID, day])
      Self.publish(made, from: db, to: onCommitted)
    }
  }
}

/// A station's platform, as a key.
public struct PlatformKey: Sendable, Hashable {
  public var stationID: String
  public var platform: String

  public init(stationID: String, platform: String) {
    self.stationID = stationID
    self.platform = platform
  }
}

/// A write the store refused because it would duplicate what is there.
public enum StoreConflict: Error, Sendable {
  case duplicate
}
