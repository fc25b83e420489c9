import Foundation
import GRDB

extension SchedulingStore {
  /// Adds a trip that runs on one date only (its own service), with its stops.
  /// - Throws: ``StoreConflict/duplicate`` when the trip id is taken.
  public func insertRun(
    tripID: String,
    lineID: String,
    trainNumber: String,
    headsign: String,
    on date: ServiceDate,
    stops: [RunStopDraft],
    at now: Date
  ) async throws {
    do {
      try await writingTrips { db in
        try Self.insertRun(db, tripID: tripID, lineID: lineID, trainNumber: trainNumber, headsign: headsign, on: date, stops: stops)
        try Self.timetableEdited(db, at: now)
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

  /// Rewrites a run in place (a trip that runs on that one date only), recording `RunEdited`;
  /// its followers are told with `notice` when there is one.
  public func rewriteRun(
    tripID: String,
    on date: ServiceDate,
    trainNumber: String,
    headsign: String,
    stops: [RunStopDraft]?,
    notice: NotificationContent?,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await writingTrips { db in
      try db.execute(
        sql: "UPDATE trip SET train_number = ?, headsign = ? WHERE id = ?",
        arguments: [trainNumber, headsign, tripID]
      )
      if let stops {
        try db.execute(sql: "DELETE FROM trip_stop WHERE trip_id = ?", arguments: [tripID])
        try Self.insertStops(db, tripID: tripID, stops: stops)
      }
      try self.recordRunEdited(tripID, on: date, stopsChanged: stops != nil, at: now, db)
      try Self.timetableEdited(db, at: now)
      try Self.tellFollowers(db, tripID: tripID, on: date, notice, at: now, onCommitted: onCommitted)
    }
  }

  /// Takes one date's run out of a trip that runs on other dates too and makes it a trip of its
  /// own (`newTripID`), with its followers and live changes, in one transaction, recording
  /// `RunRenamed` and `RunEdited`; its followers are told with `notice` when there is one.
  public func splitRun(
    tripID: String,
    on date: ServiceDate,
    into newTripID: String,
    lineID: String,
    trainNumber: String,
    headsign: String,
    stops: [RunStopDraft],
    stopsChanged: Bool,
    notice: NotificationContent?,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
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
      try db.execute(
        sql: "UPDATE itinerary_event SET train_trip_id = ? WHERE train_trip_id = ? AND train_service_date = ?",
        arguments: [newTripID, tripID, date.description]
      )
      try self.recordRunRenamed(tripID, on: date, to: newTripID, at: now, db)
      try self.recordRunEdited(newTripID, on: date, stopsChanged: stopsChanged, at: now, db)
      try Self.timetableEdited(db, at: now)
      try Self.tellFollowers(db, tripID: newTripID, on: date, notice, at: now, onCommitted: onCommitted)
    }
  }

  private static func tellFollowers(
    _ db: Database,
    tripID: String,
    on date: ServiceDate,
    _ notice: NotificationContent?,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) throws {
    guard let notice else { return }
    let followers = try followers(db, tripID: tripID, day: date.daysSinceEpoch)
    let made = try insertNotifications(db, userIDs: followers, content: notice, pushOnly: false, at: now)
    publish(made, from: db, to: onCommitted)
  }

  /// Removes the run of `tripID` on `date` and, in the same transaction, tells its followers
  /// with `content` and stops them following. A trip that ran on that date only is deleted.
  public func removeRun(
    tripID: String,
    on date: ServiceDate,
    reason: String,
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
      try Self.tellFollowers(db, tripID: tripID, on: date, content, at: now, onCommitted: onCommitted)
      try db.execute(sql: "DELETE FROM run_follower WHERE trip_id = ? AND service_day = ?", arguments: [tripID, day])
      try self.recordRunRemoved(tripID, on: date, reason: reason, at: now, db)
      try Self.timetableEdited(db, at: now)
    }
  }

  /// Marks the timetable edited at `now`: the static feed's Last-Modified moves on.
  static func timetableEdited(_ db: Database, at now: Date) throws {
    try db.execute(sql: "UPDATE timetable_import SET edited_at = ?", arguments: [now.timeIntervalSince1970])
  }
}
