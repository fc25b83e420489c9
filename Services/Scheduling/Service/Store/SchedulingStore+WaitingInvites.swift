import BinarioDomain
import BinarioEvents
import Foundation
import GRDB

/// Invites that wait for something identity tells (``ItineraryPlanner`` "waiting invites"): a
/// friendship, or an account for the address invited. Each change, its notices and the event's
/// position commit in one transaction.
extension SchedulingStore {
  /// What each changed invite tells, built inside the transaction from the invite as it was and
  /// its itinerary.
  public typealias InviteNotices = @Sendable (ItineraryInvite, Itinerary) -> [Notice]

  /// The invites between `a` and `b` (either organising) that waited for their friendship are
  /// open now. Returns how many.
  @discardableResult
  public func releaseInvitesAwaitingFriendship(
    between a: String,
    and b: String,
    notices: InviteNotices,
    position: EventPosition,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> Int {
    try await pool.write { db in
      let waiting = try Self.activeInvites(
        db,
        where: """
          i.awaits_friendship = 1 AND i.status = 'pending'
            AND ((i.invitee_user_id = ? AND t.organiser_id = ?) OR (i.invitee_user_id = ? AND t.organiser_id = ?))
          """,
        [b, a, a, b]
      )
      let released = try Self.change(
        waiting,
        db,
        sql: "UPDATE itinerary_invite SET awaits_friendship = 0 WHERE id = ?",
        arguments: { [$0.id] },
        notices: notices,
        at: now,
        onCommitted: onCommitted
      )
      try db.advanceEventCursor(to: position, at: now)
      return released
    }
  }

  /// `invitee` declined `organiser`'s friend request: the invites that waited for it are
  /// declined too. Returns how many.
  @discardableResult
  public func declineInvitesAwaitingFriendship(
    from organiser: String,
    to invitee: String,
    notices: InviteNotices,
    position: EventPosition,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> Int {
    try await pool.write { db in
      let waiting = try Self.activeInvites(
        db,
        where: "i.awaits_friendship = 1 AND i.status = 'pending' AND i.invitee_user_id = ? AND t.organiser_id = ?",
        [invitee, organiser]
      )
      let declined = try Self.change(
        waiting,
        db,
        sql: "UPDATE itinerary_invite SET status = 'rejected', answered_at = ?, awaits_friendship = 0 WHERE id = ?",
        arguments: { [now.timeIntervalSince1970, $0.id] },
        notices: notices,
        at: now,
        onCommitted: onCommitted
      )
      try db.advanceEventCursor(to: position, at: now)
      return declined
    }
  }

  /// Gives the pending invites sent to `email` before its account existed to `userID`. With a
  /// position, the event that said so is applied in the same transaction. An invite to a trip
  /// the person already has through another invite stays with the address. Returns how many.
  @discardableResult
  public func claimEmailInvites(
    email: String,
    userID: String,
    notices: InviteNotices,
    position: EventPosition?,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> Int {
    try await pool.write { db in
      let waiting = try Self.activeInvites(
        db,
        where: "i.invitee_email = ? AND i.invitee_user_id = '' AND i.status = 'pending'",
        [email]
      )
      let claimed = try Self.change(
        waiting,
        db,
        sql: "UPDATE OR IGNORE itinerary_invite SET invitee_user_id = ? WHERE id = ?",
        arguments: { [userID, $0.id] },
        notices: notices,
        at: now,
        onCommitted: onCommitted
      )
      if let position { try db.advanceEventCursor(to: position, at: now) }
      return claimed
    }
  }

  /// The organisers of the active trips with a pending invite to `email` nobody has claimed.
  public func organisersInvited(email: String) throws -> [String] {
    try pool.read { db in
      try String.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT DISTINCT t.organiser_id FROM itinerary_invite i JOIN itinerary t ON t.id = i.itinerary_id AND t.status = 'active'
            WHERE i.invitee_email = ? AND i.invitee_user_id = '' AND i.status = 'pending'
            """
        ),
        arguments: [email]
      )
    }
  }

  /// Runs `sql` for each invite with its `arguments`; each invite it changed sends its notices.
  /// Returns how many it changed.
  private static func change(
    _ invites: [(ItineraryInvite, Itinerary)],
    _ db: Database,
    sql: String,
    arguments: (ItineraryInvite) -> StatementArguments,
    notices: InviteNotices,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) throws -> Int {
    var changed = 0
    for (invite, itinerary) in invites {
      try db.execute(sql: sql, arguments: arguments(invite))
      guard db.changesCount > 0 else { continue }
      changed += 1
      for notice in notices(invite, itinerary) { try send(notice, db, at: now, onCommitted: onCommitted) }
    }
    return changed
  }

  /// Invites to active itineraries matching `condition` (a constant SQL fragment over `i`, the
  /// invite, and `t`, its itinerary), with their itineraries.
  static func activeInvites(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [(ItineraryInvite, Itinerary)] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT i.* FROM itinerary_invite i JOIN itinerary t ON t.id = i.itinerary_id AND t.status = 'active'
        WHERE \(condition) ORDER BY i.invited_at, i.rowid
        """,
      arguments: arguments
    ).compactMap { row in
      let invite = Self.invite(row)
      guard let itinerary = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM itinerary WHERE id = ?"), arguments: [invite.itineraryID])
      else { return nil }
      return (invite, Self.itinerary(itinerary))
    }
  }
}
