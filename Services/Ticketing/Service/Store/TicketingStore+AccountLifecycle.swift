import BinarioDomain
import BinarioEvents
import Foundation
import GRDB

/// What identity's account events do to ticketing's data (docs/data-map.md), each in one
/// transaction with the event cursor.
extension TicketingStore {
  /// Erases or de-identifies what ticketing holds about `userID`: their quotes and pending
  /// follow changes are erased; the subscriptions they own are deleted (with their members,
  /// reminders and payments), their memberships of others' end, their subscription settings and
  /// budgets go, and the payments they marked on others' subscriptions stay without them; their purchases, charges and tickets stay
  /// for accounting (amount, currency, dates, what was sold) without the buyer, the card or the
  /// signed code that named them; the rides they checked as an inspector lose the inspector.
  public func eraseAccount(userID: String, position: EventPosition, at now: Date) async throws -> TicketingErasure {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM quote WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM run_follow_change WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM subscription WHERE owner_id = ?", arguments: [userID])
      let subscriptions = db.changesCount
      try db.execute(sql: "DELETE FROM subscription_member WHERE user_id = ?", arguments: [userID])
      let memberships = db.changesCount
      // Their settings go; the payments they marked on others' subscriptions stay, by no one.
      try db.execute(sql: "DELETE FROM subscription_settings WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "DELETE FROM subscription_budget WHERE user_id = ?", arguments: [userID])
      try db.execute(sql: "UPDATE subscription_payment SET paid_by = NULL WHERE paid_by = ?", arguments: [userID])
      // The card's last digits on the person's charges and their refunds.
      try db.execute(
        sql: """
          UPDATE charge SET card_last4 = ''
          WHERE id IN (SELECT charge_id FROM purchase WHERE user_id = ? AND charge_id IS NOT NULL)
             OR refunds_charge_id IN (SELECT charge_id FROM purchase WHERE user_id = ? AND charge_id IS NOT NULL)
          """,
        arguments: [userID, userID]
      )
      // The (user, key) pair is unique: the purchase's own id stands in for both.
      try db.execute(
        sql: """
          UPDATE purchase SET user_id = '', idempotency_key = id, payment_method_id = '', card_token = '', card_last4 = ''
          WHERE user_id = ?
          """,
        arguments: [userID]
      )
      let purchases = db.changesCount
      var tickets = 0
      let rows = try Row.fetchAll(db, sql: "SELECT id, json FROM ticket WHERE holder_id = ?", arguments: [userID])
      for row in rows {
        var ticket = try Self.decode(Ticket.self, row["json"])
        ticket.holderID = ""
        ticket.validationCode = ""
        try db.execute(
          sql: "UPDATE ticket SET holder_id = '', json = ? WHERE id = ?",
          arguments: [try Self.json(ticket), row["id"] as String]
        )
        tickets += 1
      }
      try db.execute(sql: "UPDATE validation SET inspector_id = '' WHERE inspector_id = ?", arguments: [userID])
      try db.advanceEventCursor(to: position, at: now)
      return TicketingErasure(subscriptions: subscriptions, memberships: memberships, purchases: purchases, tickets: tickets)
    }
  }

  /// Ends `a`'s membership of `b`'s subscriptions and `b`'s of `a`'s (the shares follow: they
  /// are computed from the members).
  public func endSubscriptionMemberships(between a: String, and b: String, position: EventPosition, at now: Date) async throws {
    try await pool.write { db in
      for (owner, member) in [(a, b), (b, a)] {
        try db.execute(
          sql: """
            DELETE FROM subscription_member
            WHERE user_id = ? AND subscription_id IN (SELECT id FROM subscription WHERE owner_id = ?)
            """,
          arguments: [member, owner]
        )
      }
      try db.advanceEventCursor(to: position, at: now)
    }
  }
}
