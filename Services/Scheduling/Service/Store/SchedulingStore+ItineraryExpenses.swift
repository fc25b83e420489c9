import BinarioDomain
import Foundation
import GRDB

/// A trip's expenses and their parts; a trip's edits and an invite's removal.
extension SchedulingStore {
  /// Inserts `expense` and sends `notice`, or, when its author added one with `idempotencyKey`
  /// on this trip before, returns that one and inserts nothing: one transaction.
  public func insertExpense(
    _ expense: ItineraryExpense,
    idempotencyKey: String?,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> ItineraryExpense {
    try await pool.write { db in
      if let idempotencyKey,
        let id = try String.fetchOne(
          db,
          sql: "SELECT id FROM itinerary_expense WHERE itinerary_id = ? AND created_by = ? AND idempotency_key = ?",
          arguments: [expense.itineraryID, expense.createdBy, idempotencyKey]
        ), let earlier = try Self.expenses(db, where: "id = ?", [id]).first
      {
        return earlier
      }
      try db.execute(
        sql: """
          INSERT INTO itinerary_expense (id, itinerary_id, description, amount_minor, currency, paid_by, split, event_id,
            settlement, spent_at, created_by, created_at, idempotency_key)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          expense.id, expense.itineraryID, expense.description, expense.amount.amountMinor, expense.amount.currency,
          expense.paidBy, expense.split.rawValue, expense.eventID, expense.settlement, expense.spentAt.timeIntervalSince1970,
          expense.createdBy, expense.createdAt.timeIntervalSince1970, idempotencyKey,
        ]
      )
      try Self.insertShares(expense, db)
      try Self.send(notice, db, at: expense.createdAt, onCommitted: onCommitted)
      return expense
    }
  }

  /// Replaces an expense's description, amount, payer, split, event and parts; sends `notice`.
  public func replaceExpense(
    _ expense: ItineraryExpense,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          UPDATE itinerary_expense SET description = ?, amount_minor = ?, currency = ?, paid_by = ?, split = ?, event_id = ?,
            settlement = ?, spent_at = ?
          WHERE id = ? AND itinerary_id = ?
          """,
        arguments: [
          expense.description, expense.amount.amountMinor, expense.amount.currency, expense.paidBy, expense.split.rawValue,
          expense.eventID, expense.settlement, expense.spentAt.timeIntervalSince1970, expense.id, expense.itineraryID,
        ]
      )
      try db.execute(sql: "DELETE FROM itinerary_expense_share WHERE expense_id = ?", arguments: [expense.id])
      try Self.insertShares(expense, db)
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
    }
  }

  /// Deletes an expense of the trip and sends `notice`; returns whether it was there.
  public func deleteExpense(
    id: String,
    itineraryID: String,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM itinerary_expense WHERE id = ? AND itinerary_id = ?", arguments: [id, itineraryID])
      guard db.changesCount == 1 else { return false }
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
      return true
    }
  }

  /// A trip's expenses, newest first.
  public func expenses(itineraryID: String) throws -> [ItineraryExpense] {
    try pool.read { db in try Self.expenses(db, where: "itinerary_id = ?", [itineraryID]) }
  }

  private static func insertShares(_ expense: ItineraryExpense, _ db: Database) throws {
    for (position, share) in expense.shares.enumerated() {
      try db.execute(
        sql: "INSERT INTO itinerary_expense_share (expense_id, position, user_id, value, amount_minor) VALUES (?, ?, ?, ?, ?)",
        arguments: [expense.id, position, share.userID, share.value, share.amount.amountMinor]
      )
    }
  }

  private static func expenses(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [ItineraryExpense] {
    try Row.fetchAll(db, sql: "SELECT * FROM itinerary_expense WHERE \(condition) ORDER BY spent_at DESC, created_at DESC, id", arguments: arguments)
      .map { row in
        let id: String = row["id"]
        let currency: String = row["currency"]
        let shares = try Row.fetchAll(
          db.cachedStatement(sql: "SELECT * FROM itinerary_expense_share WHERE expense_id = ? ORDER BY position"),
          arguments: [id]
        ).map {
          ItineraryExpense.Share(userID: $0["user_id"], value: $0["value"], amount: Money(amountMinor: $0["amount_minor"], currency: currency))
        }
        return ItineraryExpense(
          id: id,
          itineraryID: row["itinerary_id"],
          description: row["description"],
          amount: Money(amountMinor: row["amount_minor"], currency: currency),
          paidBy: row["paid_by"],
          split: ItineraryExpense.Split(rawValue: row["split"]) ?? .exact,
          shares: shares,
          eventID: row["event_id"],
          settlement: row["settlement"],
          spentAt: Date(timeIntervalSince1970: row["spent_at"]),
          createdBy: row["created_by"],
          createdAt: Date(timeIntervalSince1970: row["created_at"])
        )
      }
  }

  /// Writes a trip's name, destination, dates and estimated cost; sends `notice`.
  public func replaceItinerary(
    _ itinerary: Itinerary,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          UPDATE itinerary SET name = ?, destination = ?, start_day = ?, end_day = ?, cost_minor = ?, currency = ?
          WHERE id = ?
          """,
        arguments: [
          itinerary.name, itinerary.destination, itinerary.startDate.daysSinceEpoch, itinerary.endDate.daysSinceEpoch,
          itinerary.estimatedCost.amountMinor, itinerary.estimatedCost.currency, itinerary.id,
        ]
      )
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
    }
  }

  /// Deletes an invite of the trip (a member removed, an invite cancelled) and sends `notice`.
  public func deleteInvite(
    id: String,
    itineraryID: String,
    at now: Date,
    notice: Notice?,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM itinerary_invite WHERE id = ? AND itinerary_id = ?", arguments: [id, itineraryID])
      try Self.send(notice, db, at: now, onCommitted: onCommitted)
    }
  }
}
