import Foundation
import GRDB

extension SchedulingStore {
  /// The run of `tripID` on `date` as the timetable plans it; `nil` when the trip does not run
  /// that day.
  public func plannedRun(tripID: String, on date: ServiceDate) throws -> PlannedRun? {
    try self.pool.read { db in try Self.plannedRun(db, tripID: tripID, on: date) }
  }

  /// Each run as planned with its changes, in one read (a board, a journey search); runs that
  /// do not exist are left out.
  public func runsWithChanges(_ runs: [(tripID: String, serviceDate: ServiceDate)]) throws -> [(PlannedRun, [RecordedRunChange])] {
    try self.pool.read { db in
      try runs.compactMap { run in
        try Self.plannedRun(db, tripID: run.tripID, on: run.serviceDate).map {
          ($0, try Self.changes(db, tripID: run.tripID, on: run.serviceDate))
        }
      }
    }
  }

  /// A trip with its stops, from the cache or read (and cached) in `db`'s transaction, which
  /// began under cache generation `generation`.
  func trip(_ db: Database, _ tripID: String, readAt generation: Int) throws -> TripCache.Trip? {
    if let cached = trips.trip(tripID) { return cached }
    let query = try db.cachedStatement(sql: "SELECT line_id, train_number, headsign FROM trip WHERE id = ?")
    guard let row = try Row.fetchOne(query, arguments: [tripID]) else { return nil }
    let trip = TripCache.Trip(lineID: row[0], trainNumber: row[1], headsign: row[2], stops: try Self.stops(db, tripID: tripID))
    trips.insert(trip, for: tripID, readAt: generation)
    return trip
  }

  static func stops(_ db: Database, tripID: String) throws -> [PlannedRun.Stop] {
    let stopsQuery = try db.cachedStatement(
      sql: "SELECT sequence, station_id, platform, arrival, departure FROM trip_stop WHERE trip_id = ? ORDER BY sequence"
    )
    return try Row.fetchAll(stopsQuery, arguments: [tripID]).map { row in
      PlannedRun.Stop(
        sequence: row[0],
        stationID: row[1],
        platform: row[2],
        arrival: ServiceTime(seconds: row[3]),
        departure: ServiceTime(seconds: row[4])
      )
    }
  }

  // Cached statements and columns by position: a journey search asks these for every train it
  // considers, and GRDB's lookup by column name lower-cases the name on every access.
  static func plannedRun(_ db: Database, tripID: String, on date: ServiceDate) throws -> PlannedRun? {
    let tripQuery = try db.cachedStatement(
      sql: """
        SELECT trip.line_id, trip.train_number, trip.headsign FROM trip
        JOIN service_day ON service_day.service_id = trip.service_id AND service_day.day = ?
        WHERE trip.id = ? AND NOT EXISTS (SELECT 1 FROM run_exclusion WHERE trip_id = trip.id AND day = ?)
        """
    )
    guard let trip = try Row.fetchOne(tripQuery, arguments: [date.daysSinceEpoch, tripID, date.daysSinceEpoch]) else {
      return nil
    }
    return PlannedRun(
      tripID: tripID,
      serviceDate: date,
      lineID: trip[0],
      trainNumber: trip[1],
      stops: try stops(db, tripID: tripID),
      headsign: trip[2]
    )
  }

  static func changes(_ db: Database, tripID: String, on date: ServiceDate) throws -> [RecordedRunChange] {
    let query = try db.cachedStatement(
      sql: """
        SELECT id, trip_id, service_day, kind, sequence, minutes, platform, reason, changed_by, changed_at
        FROM run_change WHERE trip_id = ? AND service_day = ? ORDER BY position
        """
    )
    return try Row.fetchAll(query, arguments: [tripID, date.daysSinceEpoch]).map(Self.recordedChange)
  }

  /// Records a live change after the run's earlier ones; acknowledged once committed.
  public func record(_ change: RecordedRunChange) throws {
    defer { timetableChanged() }
    try self.pool.write { db in try Self.insert(change, db) }
  }

  /// Records a live change and, in the same transaction, notifies each follower of the run
  /// whose part `notice` has words for (`nil`: the change does not concern that part):
  /// acknowledged, the change and its notifications are both kept; `onCommitted` gets the
  /// notifications after the commit. With an `idempotencyKey` its admin used before, records
  /// nothing and returns that earlier change (`nil`: recorded).
  ///
  /// `notice` is asked once per part followed, not per follower: the ten thousand followers of a
  /// run follow a handful of parts of it, and each notice is rendered and stored once for all of
  /// a part's followers.
  public func record(
    _ change: RecordedRunChange,
    idempotencyKey: String? = nil,
    notifying notice: @escaping @Sendable (FollowedPart) -> NotificationContent?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> RecordedRunChange? {
    defer { timetableChanged() }
    return try await self.pool.write { db in
      if let idempotencyKey, let earlier = try Self.change(db, by: change.changedBy, idempotencyKey: idempotencyKey) {
        return earlier
      }
      try Self.insert(change, db, idempotencyKey: idempotencyKey)
      // The followers of each part, in the order they are read.
      var parts: [FollowedPart] = []
      var followersOfPart: [FollowedPart: [String]] = [:]
      for follower in try Self.followersWithParts(db, tripID: change.tripID, day: change.serviceDate.daysSinceEpoch) {
        if followersOfPart[follower.part] == nil { parts.append(follower.part) }
        followersOfPart[follower.part, default: []].append(follower.userID)
      }
      var made: [UserNotification] = []
      for part in parts {
        guard let content = notice(part), let userIDs = followersOfPart[part] else { continue }
        made += try Self.insertNotifications(db, userIDs: userIDs, content: content, pushOnly: false, at: change.changedAt)
      }
      Self.publish(made, from: db, to: onCommitted)
      return nil
    }
  }

  /// The change `changedBy` made with `idempotencyKey`, if any.
  public func change(by changedBy: String, idempotencyKey: String) throws -> RecordedRunChange? {
    try self.pool.read { db in try Self.change(db, by: changedBy, idempotencyKey: idempotencyKey) }
  }

  static func change(_ db: Database, by changedBy: String, idempotencyKey: String) throws -> RecordedRunChange? {
    try Row.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT id, trip_id, service_day, kind, sequence, minutes, platform, reason, changed_by, changed_at
          FROM run_change WHERE changed_by = ? AND idempotency_key = ?
          """
      ),
      arguments: [changedBy, idempotencyKey]
    ).map(Self.recordedChange)
  }

  static func insert(_ change: RecordedRunChange, _ db: Database, idempotencyKey: String? = nil) throws {
    let (kind, sequence, minutes, platform): (String, Int, Int, String)
    switch change.kind {
    case .delay(let from, let delay): (kind, sequence, minutes, platform) = ("delay", from, delay, "")
    case .platform(let at, let newPlatform): (kind, sequence, minutes, platform) = ("platform", at, 0, newPlatform)
    case .cancellation(let from): (kind, sequence, minutes, platform) = ("cancellation", from, 0, "")
    }
    let day = change.serviceDate.daysSinceEpoch
    let position =
      try Int.fetchOne(
        db.cachedStatement(sql: "SELECT COALESCE(MAX(position), 0) + 1 FROM run_change WHERE trip_id = ? AND service_day = ?"),
        arguments: [change.tripID, day]
      ) ?? 1
    try db.execute(
      sql: """
        INSERT INTO run_change (id, trip_id, service_day, kind, sequence, minutes, platform, reason, changed_by, changed_at, position,
          idempotency_key)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        change.id, change.tripID, day, kind, sequence, minutes, platform, change.reason, change.changedBy,
        change.changedAt.timeIntervalSince1970, position, idempotencyKey,
      ]
    )
  }

  /// Every change made to the run of `tripID` on `date`, in the order made.
  public func changes(tripID: String, on date: ServiceDate) throws -> [RecordedRunChange] {
    try self.pool.read { db in try Self.changes(db, tripID: tripID, on: date) }
  }

  /// The runs with changes on service days from `firstDate` on, as trip and date.
  public func changedRuns(from firstDate: ServiceDate) throws -> [(tripID: String, serviceDate: ServiceDate)] {
    try self.pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(sql: "SELECT DISTINCT trip_id, service_day FROM run_change WHERE service_day >= ? ORDER BY service_day, trip_id"),
        arguments: [firstDate.daysSinceEpoch]
      ).map { ($0["trip_id"], ServiceDate(daysSinceEpoch: $0["service_day"])) }
    }
  }

  private static func recordedChange(_ row: Row) -> RecordedRunChange {
    // Columns: id, trip_id, service_day, kind, sequence, minutes, platform, reason, changed_by, changed_at.
    let sequence: Int = row[4]
    let kind: RunChangeKind
    switch row[3] as String {
    case "delay": kind = .delay(fromSequence: sequence, minutes: row[5])
    case "platform": kind = .platform(sequence: sequence, platform: row[6])
    default: kind = .cancellation(fromSequence: sequence)
    }
    return RecordedRunChange(
      id: row[0],
      tripID: row[1],
      serviceDate: ServiceDate(daysSinceEpoch: row[2]),
      kind: kind,
      reason: row[7],
      changedBy: row[8],
      changedAt: Date(timeIntervalSince1970: row[9])
    )
  }
}

extension SchedulingStore {
  /// The runs of `date` scheduled to be under way at `time` of that service day, or ended less
  /// than `lateness` before it (a late train may still be going), as trip and date.
  public func runsUnderWay(on date: ServiceDate, at time: ServiceTime, lateness: Int) throws -> [(tripID: String, serviceDate: ServiceDate)] {
    let seconds = time.secondsSinceServiceDayStart
    return try pool.read { db in
      try String.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT trip.id FROM trip
            JOIN service_day ON service_day.service_id = trip.service_id AND service_day.day = ?
            JOIN (SELECT trip_id, MIN(departure) AS first, MAX(arrival) AS last FROM trip_stop GROUP BY trip_id) AS span
              ON span.trip_id = trip.id
            WHERE span.first <= ? AND span.last >= ?
              AND NOT EXISTS (SELECT 1 FROM run_exclusion WHERE trip_id = trip.id AND day = ?)
            ORDER BY trip.id
            """
        ),
        arguments: [date.daysSinceEpoch, seconds, seconds - lateness, date.daysSinceEpoch]
      ).map { ($0, date) }
    }
  }
}
