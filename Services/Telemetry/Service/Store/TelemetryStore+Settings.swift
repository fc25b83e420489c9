import Foundation
import GRDB

extension TelemetryStore {
  /// `userID`'s saved settings, or the defaults.
  public func airSettings(userID: String) async throws -> AirSettings {
    try pool.readOnCurrentThread { db in
      let measure = try String.fetchOne(
        db.cachedStatement(sql: "SELECT default_measure FROM air_settings WHERE user_id = ?"),
        arguments: [userID]
      )
      let stations = try String.fetchAll(
        db.cachedStatement(sql: "SELECT station_id FROM picked_station WHERE user_id = ? ORDER BY position"),
        arguments: [userID]
      )
      return AirSettings(defaultMeasure: measure.flatMap(Measure.init(rawValue:)), stationIDs: stations)
    }
  }

  /// Replaces `userID`'s settings, in one transaction.
  public func saveAirSettings(userID: String, _ settings: AirSettings) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO air_settings (user_id, default_measure) VALUES (?, ?)
          ON CONFLICT (user_id) DO UPDATE SET default_measure = excluded.default_measure
          """,
        arguments: [userID, settings.defaultMeasure?.rawValue]
      )
      try db.execute(sql: "DELETE FROM picked_station WHERE user_id = ?", arguments: [userID])
      let insert = try db.cachedStatement(sql: "INSERT INTO picked_station (user_id, station_id, position) VALUES (?, ?, ?)")
      for (position, station) in settings.stationIDs.enumerated() {
        try insert.execute(arguments: [userID, station, position])
      }
    }
  }

  /// Which of `stationIDs` the reference data has a sensor of.
  public func knownStationIDs(_ stationIDs: Set<String>) async throws -> Set<String> {
    guard !stationIDs.isEmpty else { return [] }
    return try pool.readOnCurrentThread { db in
      let statement = try db.cachedStatement(sql: "SELECT 1 FROM reference_sensor WHERE station_id = ? LIMIT 1")
      return Set(try stationIDs.filter { try Bool.fetchOne(statement, arguments: [$0]) ?? false })
    }
  }
}
