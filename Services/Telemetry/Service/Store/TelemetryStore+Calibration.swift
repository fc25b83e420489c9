import BinarioDomain
import Foundation
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

extension TelemetryStore {
  /// The readings of `measure` of the devices `seqs` in `range`, each with the humidity measured
  /// with it and its position (what a calibration pairs with a station's values).
  public func calibrationReadings(deviceSeqs seqs: [Int64], measure: Measure, in range: Range<Date>) async throws -> [CalibrationReading] {
    try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(
        sql: """
          SELECT time_ms, \(measure.column), \(Measure.humidity.column), latitude, longitude FROM reading
          WHERE device_seq = ? AND time_ms >= ? AND time_ms < ? AND \(measure.column) IS NOT NULL ORDER BY time_ms
          """
      )
      var readings: [CalibrationReading] = []
      for seq in seqs {
        try Self.eachRow(statement, [seq, Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)]) { row in
          let located = sqlite3_column_type(row, 3) != SQLITE_NULL && sqlite3_column_type(row, 4) != SQLITE_NULL
          readings.append(
            CalibrationReading(
              time: Date(timeIntervalSince1970: Double(sqlite3_column_int64(row, 0)) / 1000),
              value: sqlite3_column_double(row, 1),
              humidity: sqlite3_column_type(row, 2) == SQLITE_NULL ? nil : sqlite3_column_double(row, 2),
              position: located ? GeoPoint(latitude: sqlite3_column_double(row, 3), longitude: sqlite3_column_double(row, 4)) : nil
            )
          )
        }
      }
      return readings
    }
  }
}
