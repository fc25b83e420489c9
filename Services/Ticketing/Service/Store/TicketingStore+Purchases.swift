import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension TicketingStore {
  /// Claims the purchase's idempotency key before its charge.
  /// - Throws: ``BinarioDomain/ServiceError/failedPrecondition(_:)`` when its quote was bought already.
  func insertPendingPurchase(_ purchase: PurchaseRecord, cardToken: String) async throws {
    do {
      try await pool.write { db in
        try db.executeCached(
          sql: """
            INSERT INTO purchase (id, user_id, idempotency_key, quote_id, status, total_minor, currency,
              payment_method_id, card_token, card_last4, created_at)
            VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            purchase.id, purchase.userID, purchase.idempotencyKey, purchase.quoteID, purchase.total.amountMinor,
            purchase.total.currency, purchase.paymentMethodID, cardToken, purchase.cardLast4,
            purchase.createdAt.timeIntervalSince1970,
          ]
        )
      }
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      throw ServiceError.failedPrecondition("this quote was bought already (with another idempotency key); ask for a new quote")
    }
  }

  /// The purchase the user's key claimed, if any, and the quote: what a purchase starts from, in
  /// one read.
  func purchaseAndQuote(userID: String, idempotencyKey: String, quoteID: String) async throws -> (PurchaseRecord?, TicketQuote?) {
    let (purchase, json) = try await pool.read { db in
      (
        try Self.purchases(db, where: "user_id = ? AND idempotency_key = ?", [userID, idempotencyKey]).first,
        try String.fetchOne(try db.cachedStatement(sql: "SELECT json FROM quote WHERE id = ?"), arguments: [quoteID])
      )
    }
    return (purchase, try json.map { try Self.decode(TicketQuote.self, $0) })
  }

  func cardToken(purchaseID: String) async throws -> String {
    try await pool.read { db in
      try String.fetchOne(try db.cachedStatement(sql: "SELECT card_token FROM purchase WHERE id = ?"), arguments: [purchaseID]) ?? ""
    }
  }

  func markPurchaseDeclined(id: String, failure: TranslatedText) async throws {
    try await pool.write { db in
      try db.executeCached(sql: "UPDATE purchase SET status = 'declined', failure = ? WHERE id = ?", arguments: [failure.stored, id])
    }
  }

  /// Records the charge's outcome and the tickets in one transaction, with the runs their holder
  /// now follows (returned, to be sent to scheduling) and a pass's subscription.
  func completePurchase(_ purchase: PurchaseRecord, passSubscription: Subscription?) async throws -> [RunFollowChange] {
    let tickets = try purchase.tickets.map { ($0, try Self.json($0)) }
    return try await pool.write { db in
      try db.executeCached(
        sql: "UPDATE purchase SET status = 'completed', charge_id = ? WHERE id = ? AND status = 'pending'",
        arguments: [purchase.chargeID, purchase.id]
      )
      guard db.changesCount == 1 else { return [] }
      for (ticket, json) in tickets {
        try db.executeCached(
          sql: "INSERT INTO ticket (id, purchase_id, holder_id, json, valid_until) VALUES (?, ?, ?, ?, ?)",
          arguments: [ticket.id, ticket.purchaseID, ticket.holderID, json, ticket.validUntil.timeIntervalSince1970]
        )
      }
      if let passSubscription { try Self.insert(passSubscription, db) }
      var seen = Set<RunReference>()
      let journeys = purchase.tickets.flatMap(\.journeys).filter { seen.insert($0.run).inserted }
      return try journeys.sorted { ($0.run.tripID, $0.run.serviceDate) < ($1.run.tripID, $1.run.serviceDate) }.map { journey in
        try Self.recordFollowChange(db, userID: purchase.userID, journey: journey, following: true)
      }
    }
  }

  static func recordFollowChange(_ db: Database, userID: String, journey: Ticket.Journey, following: Bool) throws -> RunFollowChange {
    try db.executeCached(
      sql: """
        INSERT INTO run_follow_change (user_id, trip_id, service_date, following, from_station_id, to_station_id)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
      arguments: [userID, journey.run.tripID, journey.run.serviceDate, following, journey.fromStationID, journey.toStationID]
    )
    return RunFollowChange(
      id: db.lastInsertedRowID,
      userID: userID,
      run: journey.run,
      following: following,
      fromStationID: journey.fromStationID,
      toStationID: journey.toStationID
    )
  }

  func purchase(id: String) async throws -> PurchaseRecord? {
    try await pool.read { db in try Self.purchases(db, where: "id = ?", [id]).first }
  }

  func completedPurchases(userID: String, after cursor: PurchaseCursor?, limit: Int) async throws -> [PurchaseRecord] {
    try pool.readOnCurrentThread { db in
      if let cursor {
        return try Self.purchases(
          db,
          where: "user_id = ? AND status = 'completed' AND (created_at < ? OR (created_at = ? AND id < ?))",
          [userID, cursor.createdAt.timeIntervalSince1970, cursor.createdAt.timeIntervalSince1970, cursor.id],
          limit: limit
        )
      }
      return try Self.purchases(db, where: "user_id = ? AND status = 'completed'", [userID], limit: limit)
    }
  }

  /// Marks a ticket refunded (once) with the runs its holder stops following, and removes a
  /// pass's subscription.
  func markRefunded(ticketID: String, refundChargeID: String, at now: Date) async throws -> (Ticket, [RunFollowChange]) {
    try await pool.write { db in
      try db.executeCached(
        sql: "UPDATE ticket SET refunded_at = ?, refund_charge_id = ? WHERE id = ? AND refunded_at IS NULL",
        arguments: [now.timeIntervalSince1970, refundChargeID, ticketID]
      )
      let changed = db.changesCount == 1
      guard let ticket = try Self.tickets(db, where: "id = ?", [ticketID]).first else {
        throw ServiceError.notFound("no ticket \(ticketID)")
      }
      guard changed else { return (ticket, []) }
      try db.executeCached(sql: "DELETE FROM subscription WHERE ticket_id = ?", arguments: [ticketID])
      // The holder keeps following a run another of their valid tickets is for.
      var changes: [RunFollowChange] = []
      for journey in ticket.journeys {
        let others = try Self.tickets(db, where: "holder_id = ? AND refunded_at IS NULL AND id != ?", [ticket.holderID, ticketID])
        if !others.contains(where: { $0.runs.contains(journey.run) }) {
          changes.append(try Self.recordFollowChange(db, userID: ticket.holderID, journey: journey, following: false))
        }
      }
      return (ticket, changes)
    }
  }

  func pendingFollowChanges() async throws -> [RunFollowChange] {
    try await pool.read { db in
      try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM run_follow_change WHERE sent = 0 ORDER BY id LIMIT 500")).map { row in
        RunFollowChange(
          id: row["id"],
          userID: row["user_id"],
          run: RunReference(tripID: row["trip_id"], serviceDate: row["service_date"]),
          following: row["following"],
          fromStationID: row["from_station_id"],
          toStationID: row["to_station_id"]
        )
      }
    }
  }

  func markFollowChangeSent(id: Int64) async throws {
    try await pool.write { db in try db.executeCached(sql: "UPDATE run_follow_change SET sent = 1 WHERE id = ?", arguments: [id]) }
  }

  static func purchases(
    _ db: Database,
    where condition: String,
    _ arguments: StatementArguments,
    limit: Int = 1000
  )
    throws -> [PurchaseRecord]
  {
    let rows = try Row.fetchAll(
      try db.cachedStatement(
        sql: """
          SELECT p.*, (SELECT COALESCE(SUM(c.amount_minor), 0) FROM charge c
                       WHERE c.refunds_charge_id = p.charge_id AND c.status = 'approved') AS refunded_minor
          FROM purchase p WHERE \(condition) ORDER BY created_at DESC, id DESC LIMIT \(limit)
          """
      ),
      arguments: arguments
    )
    return try rows.map { row in
      let currency: String = row["currency"]
      return PurchaseRecord(
        id: row["id"],
        userID: row["user_id"],
        idempotencyKey: row["idempotency_key"],
        quoteID: row["quote_id"],
        status: PurchaseRecord.Status(rawValue: row["status"]) ?? .pending,
        total: Money(amountMinor: row["total_minor"], currency: currency),
        paymentMethodID: row["payment_method_id"],
        cardLast4: row["card_last4"],
        chargeID: row["charge_id"],
        failure: (row["failure"] as String?).map(TranslatedText.init(stored:)),
        createdAt: Date(timeIntervalSince1970: row["created_at"]),
        tickets: try tickets(db, where: "purchase_id = ?", [row["id"] as String]),
        refunded: Money(amountMinor: row["refunded_minor"], currency: currency)
      )
    }
  }
}
