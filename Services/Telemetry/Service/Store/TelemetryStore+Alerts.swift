import BinarioDomain
import Foundation
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

extension TelemetryStore {
  /// A person's alerts, newest first, each with the newest time it notified of.
  public func airAlerts(userID: String) async throws -> [AirAlert] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(db, sql: "\(Self.alertSelect) WHERE a.user_id = ? GROUP BY a.id ORDER BY a.created_at DESC, a.id", arguments: [userID]).map(
        Self.airAlert
      )
    }
  }

  /// Every alert, for the job.
  public func allAirAlerts() async throws -> [AirAlert] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(db, sql: "\(Self.alertSelect) GROUP BY a.id ORDER BY a.created_at, a.id").map(Self.airAlert)
    }
  }

  /// The alert a person made with `idempotencyKey`, if any.
  public func airAlert(userID: String, idempotencyKey: String) async throws -> AirAlert? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(
        db,
        sql: "\(Self.alertSelect) WHERE a.user_id = ? AND a.idempotency_key = ? GROUP BY a.id",
        arguments: [userID, idempotencyKey]
      )
      .map(Self.airAlert)
    }
  }

  /// Saves a new alert, unless the person already keeps `limit` (FAILED_PRECONDITION); a
  /// concurrent twin with the same key answers the one saved first.
  public func insertAirAlert(_ alert: AirAlert, idempotencyKey: String, limit: Int) async throws -> AirAlert {
    try await pool.write { db in
      if let made = try Row.fetchOne(
        db,
        sql: "\(Self.alertSelect) WHERE a.user_id = ? AND a.idempotency_key = ? GROUP BY a.id",
        arguments: [alert.userID, idempotencyKey]
      ) {
        return Self.airAlert(made)
      }
      let kept = try Int.fetchOne(db, sql: "SELECT count(*) FROM air_alert WHERE user_id = ?", arguments: [alert.userID]) ?? 0
      guard kept < limit else { throw ServiceError.failedPrecondition("you keep \(limit) alerts, the most a person may: delete one first") }
      var measure: String?
      var threshold: Double?
      var silentMinutes: Int?
      switch alert.condition {
      case .above(let watched, let value): (measure, threshold) = (watched.rawValue, value)
      case .silence(let minutes): silentMinutes = minutes
      }
      var deviceID: String?
      var area: (latitude: Double, longitude: Double, radius: Double)?
      switch alert.scope {
      case .myBoards: break
      case .board(let id): deviceID = id
      case .area(let centre, let radius): area = (centre.latitude, centre.longitude, radius)
      }
      try db.execute(
        sql: """
          INSERT INTO air_alert (id, user_id, idempotency_key, name, measure, threshold, silent_minutes, device_id, latitude, longitude, radius_metres, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          alert.id, alert.userID, idempotencyKey, alert.name, measure, threshold, silentMinutes, deviceID, area?.latitude, area?.longitude,
          area?.radius,
          alert.createdAt.timeIntervalSince1970,
        ]
      )
      return alert
    }
  }

  /// Deletes one of a person's alerts with its state; `false` when they have no such alert.
  public func deleteAirAlert(userID: String, id: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM air_alert WHERE id = ? AND user_id = ?", arguments: [id, userID])
      return db.changesCount > 0
    }
  }

  public func airAlertState(alertID: String, deviceSeq: Int64) async throws -> AirAlertState? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(
        db.cachedStatement(sql: "SELECT newest_ms, above, notified_ms, silent_after_ms FROM air_alert_state WHERE alert_id = ? AND device_seq = ?"),
        arguments: [alertID, deviceSeq]
      ).map { row in
        AirAlertState(
          newest: Self.date(ms: row[0]),
          above: row[1],
          notified: (row[2] as Int64?).map(Self.date(ms:)),
          silentAfter: (row[3] as Int64?).map(Self.date(ms:))
        )
      }
    }
  }

  /// Saves a pass's state of an alert and a board; nothing when either was deleted meanwhile.
  public func saveAirAlertState(_ state: AirAlertState, alertID: String, deviceSeq: Int64) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO air_alert_state (alert_id, device_seq, newest_ms, above, notified_ms, silent_after_ms)
          SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM air_alert WHERE id = ?) AND EXISTS (SELECT 1 FROM device WHERE seq = ?)
          ON CONFLICT (alert_id, device_seq) DO UPDATE SET
            newest_ms = excluded.newest_ms, above = excluded.above, notified_ms = excluded.notified_ms, silent_after_ms = excluded.silent_after_ms
          """,
        arguments: [
          alertID, deviceSeq, Self.milliseconds(state.newest), state.above, state.notified.map(Self.milliseconds),
          state.silentAfter.map(Self.milliseconds),
          alertID, deviceSeq,
        ]
      )
    }
  }

  /// A board's readings of `measure` after `instant`, in time order, at most `limit`.
  public func alertReadings(
    deviceSeq: Int64,
    measure: Measure,
    after instant: Date,
    limit: Int
  ) async throws -> [(time: Date, value: Double, position: GeoPoint?)] {
    try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT time_ms, \(measure.column), latitude, longitude FROM reading
          WHERE device_seq = ? AND time_ms > ? AND \(measure.column) IS NOT NULL ORDER BY time_ms LIMIT ?
          """
      )
      var readings: [(time: Date, value: Double, position: GeoPoint?)] = []
      try Self.eachRow(statement, [deviceSeq, Self.milliseconds(instant), limit]) { row in
        let located = sqlite3_column_type(row, 2) != SQLITE_NULL && sqlite3_column_type(row, 3) != SQLITE_NULL
        readings.append(
          (
            Self.date(ms: sqlite3_column_int64(row, 0)), sqlite3_column_double(row, 1),
            located ? GeoPoint(latitude: sqlite3_column_double(row, 2), longitude: sqlite3_column_double(row, 3)) : nil
          )
        )
      }
      return readings
    }
  }

  static func date(ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

  static let alertSelect = """
    SELECT a.*, max(s.notified_ms) AS last_triggered_ms FROM air_alert a LEFT JOIN air_alert_state s ON s.alert_id = a.id
    """

  static func airAlert(_ row: Row) -> AirAlert {
    let condition: AirAlert.Condition =
      if let measure = (row["measure"] as String?).flatMap(Measure.init(rawValue:)), let threshold = row["threshold"] as Double? {
        .above(measure, threshold: threshold)
      } else {
        .silence(minutes: row["silent_minutes"] ?? 0)
      }
    let scope: AirAlert.Scope =
      if let deviceID = row["device_id"] as String? {
        .board(deviceID)
      } else if let latitude = row["latitude"] as Double?, let longitude = row["longitude"] as Double?, let radius = row["radius_metres"] as Double? {
        .area(centre: GeoPoint(latitude: latitude, longitude: longitude), radiusMetres: radius)
      } else {
        .myBoards
      }
    return AirAlert(
      id: row["id"],
      userID: row["user_id"],
      name: row["name"],
      condition: condition,
      scope: scope,
      createdAt: Date(timeIntervalSince1970: row["created_at"]),
      lastTriggeredAt: (row["last_triggered_ms"] as Int64?).map(date(ms:))
    )
  }
}
