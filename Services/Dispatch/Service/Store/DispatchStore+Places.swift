import BinarioDomain
import Foundation
import GRDB

extension DispatchStore {
  public func savePlace(userID: String, _ place: SavedPlace) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO saved_place (user_id, name, latitude, longitude) VALUES (?, ?, ?, ?)
          ON CONFLICT (user_id, name) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude
          """,
        arguments: [userID, place.name, place.position.latitude, place.position.longitude]
      )
    }
  }

  public func savedPlaces(userID: String) async throws -> [SavedPlace] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM saved_place WHERE user_id = ? ORDER BY name"), arguments: [userID]).map {
        SavedPlace(name: $0["name"], position: GeoPoint(latitude: $0["latitude"], longitude: $0["longitude"]))
      }
    }
  }

  /// Whether there was such a place.
  public func deleteSavedPlace(userID: String, name: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM saved_place WHERE user_id = ? AND name = ?", arguments: [userID, name])
      return db.changesCount > 0
    }
  }
}
