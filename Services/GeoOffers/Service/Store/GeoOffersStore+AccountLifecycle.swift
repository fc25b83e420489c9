import BinarioDomain
import BinarioEvents
import Foundation
import GRDB

/// What identity's account events do to geo-offers' data (docs/data-map.md), in one transaction
/// with the event cursor.
extension GeoOffersStore {
  /// Erases what geo-offers holds about `userID`: their last known position, the deals offered
  /// to them and the welcomes sent to them. Returns how many rows went.
  public func eraseAccount(userID: String, position: EventPosition, at now: Date) async throws -> Int {
    try await pool.write { db in
      var erased = 0
      for table in ["user_location", "offered_deal", "welcome"] {
        try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [userID])
        erased += db.changesCount
      }
      try db.advanceEventCursor(to: position, at: now)
      return erased
    }
  }
}
