import BinarioDomain
import BinarioEvents
import Foundation
import GRDB

/// What identity's account events do to telemetry's data (docs/data-map.md), each in one
/// transaction with the event cursor.
extension TelemetryStore {
  /// Erases what telemetry holds about `userID`: their boards with every reading and token,
  /// the campaigns they own (their members' boards stay their owners', out of the campaign),
  /// their campaign memberships, their disabled mark, their settings, their air alerts, and their portal links with
  /// their fetch state (what the links brought is the portal's public data, and stays).
  public func eraseAccount(userID: String, position: EventPosition, at now: Date) async throws -> AccountErasure {
    try await pool.write { db in
      let readings =
        try Int.fetchOne(
          db,
          sql: "SELECT count(*) FROM reading WHERE device_seq IN (SELECT seq FROM device WHERE owner_user_id = ?)",
          arguments: [userID]
        ) ?? 0
      try db.execute(sql: "DELETE FROM device WHERE owner_user_id = ?", arguments: [userID])
      let devices = db.changesCount
      try db.execute(sql: "DELETE FROM campaign WHERE owner_user_id = ?", arguments: [userID])
      let campaigns = db.changesCount
      try db.execute(sql: "DELETE FROM campaign_member WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM disabled_account WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM air_settings WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM picked_station WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM portal_link WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM air_alert WHERE user_id = ?", arguments: [userID])
      let prefix = ReferenceSources.linkPrefix(of: userID)
      try db.execute(sql: "DELETE FROM reference_fetch WHERE substr(source, 1, length(?)) = ?", arguments: [prefix, prefix])
      try db.execute(sql: "DELETE FROM reference_cursor WHERE substr(source, 1, length(?)) = ?", arguments: [prefix, prefix])
      try db.advanceEventCursor(to: position, at: now)
      return AccountErasure(devices: devices, readings: readings, campaigns: campaigns)
    }
  }

  /// Marks `userID`'s account disabled (their boards' tokens refused) or enabled again.
  public func setAccountDisabled(userID: String, _ disabled: Bool, position: EventPosition, at now: Date) async throws {
    try await pool.write { db in
      if disabled {
        try db.execute(
          sql: "INSERT INTO disabled_account (user_id, disabled_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
          arguments: [userID, now.timeIntervalSince1970]
        )
      } else {
        try db.execute(sql: "DELETE FROM disabled_account WHERE user_id = ?", arguments: [userID])
      }
      try db.advanceEventCursor(to: position, at: now)
    }
  }
}
