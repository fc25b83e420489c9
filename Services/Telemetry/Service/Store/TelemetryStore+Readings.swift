import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

extension TelemetryStore {
  /// Stores `readings` of a device in one transaction: each new (device, time) is inserted; one
  /// already stored with the same position and values is a duplicate; one stored with others is
  /// rejected (a stored reading never changes). The device is marked seen at `seenAt` in the same
  /// transaction, even when no reading is new. The outcome names the batch indexes stored.
  public func store(deviceSeq: Int64, _ readings: [(index: Int, reading: Reading)], seenAt: Date) async throws -> IngestOutcome {
    let columns = Measure.allCases.map(\.column)
    let insertSQL = """
      INSERT INTO reading (device_seq, time_ms, latitude, longitude, altitude, \(columns.joined(separator: ", ")))
      VALUES (?, ?, ?, ?, ?, \(columns.map { _ in "?" }.joined(separator: ", ")))
      ON CONFLICT (device_seq, time_ms) DO NOTHING
      """
    let existingSQL = "SELECT latitude, longitude, altitude, \(columns.joined(separator: ", ")) FROM reading WHERE device_seq = ? AND time_ms = ?"
    return try await pool.write { db in
      var outcome = IngestOutcome()
      try db.execute(
        sql: "UPDATE device SET last_seen_at = max(coalesce(last_seen_at, 0), ?) WHERE seq = ?",
        arguments: [seenAt.timeIntervalSince1970, deviceSeq]
      )
      let insert = try db.cachedStatement(sql: insertSQL)
      let existing = try db.cachedStatement(sql: existingSQL)
      // Bound and stepped through SQLite's own API: building GRDB's StatementArguments for each of
      // a batch's readings cost more than SQLite's insert itself (telemetry-bench's profile).
      let handle = insert.sqliteStatement
      for (index, reading) in readings {
        let time = reading.timeMilliseconds
        sqlite3_bind_int64(handle, 1, deviceSeq)
        sqlite3_bind_int64(handle, 2, time)
        if let position = reading.position {
          sqlite3_bind_double(handle, 3, position.latitude)
          sqlite3_bind_double(handle, 4, position.longitude)
        } else {
          sqlite3_bind_null(handle, 3)
          sqlite3_bind_null(handle, 4)
        }
        if let altitude = reading.altitude { sqlite3_bind_double(handle, 5, altitude) } else { sqlite3_bind_null(handle, 5) }
        for measure in Measure.allCases {
          let parameter = Int32(6 + measure.slot)
          if let value = reading.values[measure] { sqlite3_bind_double(handle, parameter, value) } else { sqlite3_bind_null(handle, parameter) }
        }
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE else {
          if ResultCode(rawValue: sqlite3_extended_errcode(db.sqliteConnection)) == .SQLITE_CONSTRAINT_FOREIGNKEY {
            // Its owner deleted the device while a board was still streaming to it.
            throw ServiceError.unauthenticated("this device was deleted by its owner; its token uploads nothing any more")
          }
          throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: insertSQL)
        }
        if db.changesCount > 0 {
          outcome.stored += 1
          outcome.storedIndexes.append(index)
          continue
        }
        guard let row = try Row.fetchOne(existing, arguments: [deviceSeq, time]) else { continue }
        var same =
          row[0] as Double? == reading.position?.latitude && row[1] as Double? == reading.position?.longitude
          && row[2] as Double? == reading.altitude
        for (offset, measure) in Measure.allCases.enumerated() where same {
          same = row[3 + offset] as Double? == reading.values[measure]
        }
        if same {
          outcome.duplicates += 1
        } else {
          outcome.rejected.append(
            (index, "a reading of this device at \(reading.time) is stored with other values; stored readings never change")
          )
        }
      }
      return outcome
    }
  }

  /// How many readings a device has.
  public func readingCount(deviceSeq: Int64) async throws -> Int {
    try pool.readOnCurrentThread { db in
      try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM reading WHERE device_seq = ?"), arguments: [deviceSeq]) ?? 0
    }
  }
}
