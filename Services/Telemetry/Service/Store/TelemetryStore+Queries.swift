import BinarioDomain
import Foundation
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

extension TelemetryStore {
  static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

  /// The row keys of a user's own devices.
  public func deviceSeqs(ownerUserID: String) async throws -> [Int64] {
    try pool.readOnCurrentThread { db in
      try Int64.fetchAll(db.cachedStatement(sql: "SELECT seq FROM device WHERE owner_user_id = ? ORDER BY seq"), arguments: [ownerUserID])
    }
  }

  /// The values of `measure` of the devices `seqs` in `range` (time, value), each device's in
  /// time order.
  public func values(deviceSeqs seqs: [Int64], measure: Measure, in range: Range<Date>) async throws -> [(Date, Double)] {
    try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT time_ms, \(measure.column) FROM reading
          WHERE device_seq = ? AND time_ms >= ? AND time_ms < ? AND \(measure.column) IS NOT NULL ORDER BY time_ms
          """
      )
      var values: [(Date, Double)] = []
      for seq in seqs {
        try Self.eachRow(statement, [seq, Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)]) { row in
          values.append((Date(timeIntervalSince1970: Double(sqlite3_column_int64(row, 0)) / 1000), sqlite3_column_double(row, 1)))
        }
      }
      return values
    }
  }

  /// The values alone of `measure` of the devices `seqs` in `range`, in no particular order (what
  /// statistics need).
  public func measureValues(deviceSeqs seqs: [Int64], measure: Measure, in range: Range<Date>) async throws -> [Double] {
    try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT \(measure.column) FROM reading
          WHERE device_seq = ? AND time_ms >= ? AND time_ms < ? AND \(measure.column) IS NOT NULL
          """
      )
      var values: [Double] = []
      for seq in seqs {
        try Self.eachRow(statement, [seq, Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)]) { row in
          values.append(sqlite3_column_double(row, 0))
        }
      }
      return values
    }
  }

  /// Runs `statement` with `arguments`, handing each row to `body` as SQLite's own statement
  /// (read it with `sqlite3_column_*`): a query over a million readings spends its time in
  /// SQLite, not in building a `Row` per reading.
  static func eachRow(_ statement: Statement, _ arguments: StatementArguments, _ body: (OpaquePointer) throws -> Void) throws {
    try statement.setArguments(arguments)
    let handle = statement.sqliteStatement
    defer { sqlite3_reset(handle) }
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      guard code == SQLITE_ROW else {
        throw DatabaseError(
          resultCode: ResultCode(rawValue: code),
          message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
          sql: statement.sql
        )
      }
      try body(handle)
    }
  }

  /// The readings of `measure` of the devices `seqs` within `box` and `range`.
  public func mapPoints(deviceSeqs seqs: [Int64], measure: Measure, within box: GeoBox, in range: Range<Date>) async throws -> [MapPoint] {
    try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT d.id, r.time_ms, r.latitude, r.longitude, r.\(measure.column) FROM reading r JOIN device d ON d.seq = r.device_seq
          WHERE r.device_seq = ? AND r.time_ms >= ? AND r.time_ms < ? AND r.\(measure.column) IS NOT NULL
            AND r.latitude BETWEEN ? AND ? AND r.longitude BETWEEN ? AND ?
          ORDER BY r.time_ms
          """
      )
      var points: [MapPoint] = []
      for seq in seqs {
        let rows = try Row.fetchCursor(
          statement,
          arguments: [
            seq, Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound), box.minLatitude, box.maxLatitude,
            box.minLongitude, box.maxLongitude,
          ]
        )
        while let row = try rows.next() {
          points.append(
            MapPoint(
              deviceID: row[0],
              time: Date(timeIntervalSince1970: Double(row[1] as Int64) / 1000),
              position: GeoPoint(latitude: row[2], longitude: row[3]),
              value: row[4]
            )
          )
        }
      }
      return points
    }
  }

  /// Each measure's latest value of a device, with its time.
  public func latest(deviceSeq: Int64) async throws -> [Measure: (time: Date, value: Double)] {
    try pool.readOnCurrentThread { db in
      var latest: [Measure: (time: Date, value: Double)] = [:]
      for measure in Measure.allCases {
        if let row = try Row.fetchOne(
          db,
          sql: "SELECT time_ms, \(measure.column) FROM reading WHERE device_seq = ? AND \(measure.column) IS NOT NULL ORDER BY time_ms DESC LIMIT 1",
          arguments: [deviceSeq]
        ) {
          latest[measure] = (Date(timeIntervalSince1970: Double(row[0] as Int64) / 1000), row[1])
        }
      }
      return latest
    }
  }

  /// A device's readings in `range`, in time order (the CSV export).
  public func readings(deviceSeq: Int64, in range: Range<Date>) async throws -> [Reading] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(sql: "SELECT * FROM reading WHERE device_seq = ? AND time_ms >= ? AND time_ms < ? ORDER BY time_ms"),
        arguments: [deviceSeq, Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)]
      ).map(Self.reading)
    }
  }

  /// A `reading` row as a reading.
  static func reading(_ row: Row) -> Reading {
    var values = MeasureValues()
    for measure in Measure.allCases { values[measure] = row[measure.column] }
    return Reading(
      time: Date(timeIntervalSince1970: Double(row["time_ms"] as Int64) / 1000),
      position: (row["latitude"] as Double?).flatMap { latitude in
        (row["longitude"] as Double?).map { GeoPoint(latitude: latitude, longitude: $0) }
      },
      altitude: row["altitude"],
      values: values
    )
  }
}

// MARK: - Public map

extension TelemetryStore {
  /// The devices in public campaigns, and those campaigns' names: what anyone may see.
  public func publicDevices() async throws -> (seqs: [Int64], campaigns: [String]) {
    try pool.readOnCurrentThread { db in
      let seqs = try Int64.fetchAll(
        db.cachedStatement(
          sql: "SELECT d.seq FROM device d JOIN campaign c ON c.id = d.campaign_id WHERE c.public = 1 ORDER BY d.seq"
        )
      )
      let names = try String.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT DISTINCT c.name FROM campaign c
            WHERE c.public = 1 AND EXISTS (SELECT 1 FROM device d WHERE d.campaign_id = c.id) ORDER BY c.name
            """
        )
      )
      return (seqs, names)
    }
  }

  /// The time of the latest reading of any of the devices `seqs`, if any.
  public func latestReadingTime(deviceSeqs seqs: [Int64]) async throws -> Date? {
    try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(sql: "SELECT MAX(time_ms) FROM reading WHERE device_seq = ?")
      let latest = try seqs.compactMap { try Int64.fetchOne(statement, arguments: [$0]) }.max()
      return latest.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }
  }
}
