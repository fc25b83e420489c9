import BinarioDomain
import BinarioEvents
import Foundation
import GRDB

/// What identity's account events do to scheduling's data (docs/data-map.md), each in one
/// transaction with the event cursor and the notices it sends.
extension SchedulingStore {
  /// Erases what scheduling holds about `userID`: the itineraries they organise (invites and
  /// events with them; `notices` tell the members), their invitations and memberships (also
  /// those waiting for `email`), their name on events they added to others' itineraries, their
  /// inbox, deliveries, preferences, push devices and followed trains, and the `Notify`
  /// idempotency keys that name them.
  public func eraseAccount(
    userID: String,
    email: String,
    notices: [Notice],
    position: EventPosition,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> SchedulingErasure {
    try await pool.write { db in
      for notice in notices { try Self.send(notice, db, at: now, onCommitted: onCommitted) }
      try db.execute(sql: "DELETE FROM itinerary WHERE organiser_id = ?", arguments: [userID])
      let itineraries = db.changesCount
      try db.execute(sql: "DELETE FROM itinerary_invite WHERE invitee_user_id = ?", arguments: [userID])
      if !email.isEmpty {
        try db.execute(
          sql: "DELETE FROM itinerary_invite WHERE invitee_user_id = '' AND lower(invitee_email) = lower(?)",
          arguments: [email]
        )
      }
      // The ticket id points into the departed person's wallet: it goes with their author id.
      try db.execute(sql: "UPDATE itinerary_event SET created_by = '', ticket_id = NULL WHERE created_by = ?", arguments: [userID])
      // Their expenses on others' trips stay (the balances must still add up), under a name that
      // is no one's: the same one for all their rows, so what they paid and owed still nets out.
      let departed = "left-" + UUID().uuidString.lowercased().prefix(12)
      try db.execute(sql: "UPDATE itinerary_expense SET paid_by = ? WHERE paid_by = ?", arguments: [departed, userID])
      try db.execute(sql: "UPDATE itinerary_expense SET created_by = '' WHERE created_by = ?", arguments: [userID])
      try db.execute(sql: "UPDATE itinerary_expense_share SET user_id = ? WHERE user_id = ?", arguments: [departed, userID])
      try db.execute(sql: "DELETE FROM notification WHERE user_id = ?", arguments: [userID])
      let notifications = db.changesCount
      try db.execute(sql: "DELETE FROM delivery WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM notification_preference WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM notification_topic_preference WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM push_device WHERE user_id = ?", arguments: [userID])
      let devices = db.changesCount
      try db.execute(sql: "DELETE FROM run_follower WHERE user_id = ?", arguments: [userID])
      // Callers' idempotency keys that name the person (a deal offered to them, a renewal
      // reminder): ids are random, so containing it means being about them.
      try db.execute(sql: "DELETE FROM notify_request WHERE instr(dedupe_key, ?) > 0", arguments: [userID])
      try db.advanceEventCursor(to: position, at: now)
      return SchedulingErasure(itineraries: itineraries, notifications: notifications, pushDevices: devices)
    }
  }

  /// Ends `a`'s and `b`'s memberships of each other's active itineraries (their invites marked
  /// left), sending `notices`.
  public func endItineraryMemberships(
    between a: String,
    and b: String,
    notices: [Notice],
    position: EventPosition,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await pool.write { db in
      for (organiser, member) in [(a, b), (b, a)] {
        try db.execute(
          sql: """
            UPDATE itinerary_invite SET status = 'left', answered_at = ?
            WHERE invitee_user_id = ? AND status IN ('pending', 'accepted')
              AND itinerary_id IN (SELECT id FROM itinerary WHERE organiser_id = ? AND status = 'active')
            """,
          arguments: [now.timeIntervalSince1970, member, organiser]
        )
      }
      for notice in notices { try Self.send(notice, db, at: now, onCommitted: onCommitted) }
      try db.advanceEventCursor(to: position, at: now)
    }
  }
}
