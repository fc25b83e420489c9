import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension TicketingStore {
  // MARK: - Fare table and keys

  public func fareTable() async throws -> FareTable? {
    if let table = fareTableInForce.withLock({ $0 }) { return table }
    let json = try await pool.read { db in try String.fetchOne(try db.cachedStatement(sql: "SELECT json FROM fare_table WHERE id = 1")) }
    let table = try json.map { try FareTable.decode(Data($0.utf8)) }
    fareTableInForce.withLock { $0 = table }
    return table
  }

  public func replaceFareTable(_ table: FareTable, at now: Date) async throws {
    let json = String(decoding: table.encoded(), as: UTF8.self)
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT OR REPLACE INTO fare_table (id, json, loaded_at) VALUES (1, ?, ?)",
        arguments: [json, now.timeIntervalSince1970]
      )
    }
    fareTableInForce.withLock { $0 = table }
  }

  /// Every validation key, newest first.
  public func validationKeys() async throws -> [(id: String, privateKey: Data)] {
    try await pool.read { db in
      try Row.fetchAll(try db.cachedStatement(sql: "SELECT id, private_key FROM validation_key ORDER BY created_at DESC"))
        .map { ($0["id"], $0["private_key"]) }
    }
  }

  public func insertValidationKey(id: String, privateKey: Data, at now: Date) async throws {
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT INTO validation_key (id, private_key, created_at) VALUES (?, ?, ?)",
        arguments: [id, privateKey, now.timeIntervalSince1970]
      )
    }
  }

  // MARK: - Quotes

  func insertQuote(_ quote: TicketQuote) async throws {
    let json = try Self.json(quote)
    try await pool.write { db in
      try db.executeCached(
        sql: "INSERT INTO quote (id, user_id, json, expires_at) VALUES (?, ?, ?, ?)",
        arguments: [quote.id, quote.userID, json, quote.expiresAt.timeIntervalSince1970]
      )
    }
  }

  /// Removes quotes that expired before `cutoff` and were never bought.
  @discardableResult
  public func removeQuotes(expiredBefore cutoff: Date) async throws -> Int {
    try await pool.write { db in
      try db.executeCached(
        sql: "DELETE FROM quote WHERE expires_at < ? AND id NOT IN (SELECT quote_id FROM purchase WHERE status != 'declined')",
        arguments: [cutoff.timeIntervalSince1970]
      )
      return db.changesCount
    }
  }

  // MARK: - Purchases

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

  func markPurchaseDeclined(id: String, failure: String) async throws {
    try await pool.write { db in
      try db.executeCached(sql: "UPDATE purchase SET status = 'declined', failure = ? WHERE id = ?", arguments: [failure, id])
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
      let runs = Set(purchase.tickets.flatMap(\.runs))
      return try runs.sorted { ($0.tripID, $0.serviceDate) < ($1.tripID, $1.serviceDate) }.map { run in
        try Self.recordFollowChange(db, userID: purchase.userID, run: run, following: true)
      }
    }
  }

  static func recordFollowChange(_ db: Database, userID: String, run: RunReference, following: Bool) throws -> RunFollowChange {
    try db.executeCached(
      sql: "INSERT INTO run_follow_change (user_id, trip_id, service_date, following) VALUES (?, ?, ?, ?)",
      arguments: [userID, run.tripID, run.serviceDate, following]
    )
    return RunFollowChange(id: db.lastInsertedRowID, userID: userID, run: run, following: following)
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

  private static func purchases(
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
        failure: row["failure"],
        createdAt: Date(timeIntervalSince1970: row["created_at"]),
        tickets: try tickets(db, where: "purchase_id = ?", [row["id"] as String]),
        refunded: Money(amountMinor: row["refunded_minor"], currency: currency)
      )
    }
  }

  // MARK: - Tickets

  func ticket(id: String) async throws -> Ticket? {
    try await pool.read { db in try Self.tickets(db, where: "id = ?", [id]).first }
  }

  /// The holder's tickets whose dates are not over at `now`.
  func tickets(holderID: String, validAfter now: Date) async throws -> [Ticket] {
    try await pool.read { db in
      try Self.tickets(
        db,
        where: "holder_id = ? AND refunded_at IS NULL AND (valid_until > ? OR active_until > ?)",
        [holderID, now.timeIntervalSince1970, now.timeIntervalSince1970]
      )
    }
  }

  static func tickets(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [Ticket] {
    try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM ticket WHERE \(condition) ORDER BY rowid"), arguments: arguments).map(ticket)
  }

  /// The ticket as issued (its JSON) with what changed since: rides used, the active ride, a refund.
  static func ticket(_ row: Row) throws -> Ticket {
    var ticket = try decode(Ticket.self, row["json"])
    ticket.ridesUsed = row["rides_used"]
    ticket.activeUntil = (row["active_until"] as Double?).map(Date.init(timeIntervalSince1970:))
    ticket.refundedAt = (row["refunded_at"] as Double?).map(Date.init(timeIntervalSince1970:))
    return ticket
  }

  /// Applies `use` to the ticket in one transaction and records the ride.
  func validate(
    ticketID: String,
    holderID: String,
    inspectorID: String,
    at now: Date,
    _ use: @escaping @Sendable (Ticket) throws(ServiceError) -> Ticket
  ) async throws -> (Ticket, TicketValidation) {
    try await pool.write { db in
      guard let ticket = try Self.tickets(db, where: "id = ?", [ticketID]).first, ticket.holderID == holderID else {
        throw ServiceError.notFound("no ticket \(ticketID)")
      }
      let used = try use(ticket)
      try db.executeCached(
        sql: "UPDATE ticket SET rides_used = ?, active_until = ? WHERE id = ?",
        arguments: [used.ridesUsed, used.activeUntil?.timeIntervalSince1970, ticketID]
      )
      let validation = TicketValidation(
        ticketID: ticketID,
        ride: used.ridesUsed,
        validatedAt: now,
        activeUntil: used.activeUntil,
        inspectorID: inspectorID
      )
      try db.executeCached(
        sql: "INSERT INTO validation (ticket_id, ride, validated_at, active_until, inspector_id) VALUES (?, ?, ?, ?, ?)",
        arguments: [ticketID, validation.ride, now.timeIntervalSince1970, used.activeUntil?.timeIntervalSince1970, inspectorID]
      )
      return (used, validation)
    }
  }

  func validations(ticketID: String) async throws -> [TicketValidation] {
    try await pool.read { db in
      try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM validation WHERE ticket_id = ? ORDER BY ride"), arguments: [ticketID]).map { row in
        TicketValidation(
          ticketID: row["ticket_id"],
          ride: row["ride"],
          validatedAt: Date(timeIntervalSince1970: row["validated_at"]),
          activeUntil: (row["active_until"] as Double?).map(Date.init(timeIntervalSince1970:)),
          inspectorID: row["inspector_id"]
        )
      }
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
      for run in ticket.runs {
        let others = try Self.tickets(db, where: "holder_id = ? AND refunded_at IS NULL AND id != ?", [ticket.holderID, ticketID])
        if !others.contains(where: { $0.runs.contains(run) }) {
          changes.append(try Self.recordFollowChange(db, userID: ticket.holderID, run: run, following: false))
        }
      }
      return (ticket, changes)
    }
  }

  // MARK: - Following runs

  func pendingFollowChanges() async throws -> [RunFollowChange] {
    try await pool.read { db in
      try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM run_follow_change WHERE sent = 0 ORDER BY id LIMIT 500")).map { row in
        RunFollowChange(
          id: row["id"],
          userID: row["user_id"],
          run: RunReference(tripID: row["trip_id"], serviceDate: row["service_date"]),
          following: row["following"]
        )
      }
    }
  }

  func markFollowChangeSent(id: Int64) async throws {
    try await pool.write { db in try db.executeCached(sql: "UPDATE run_follow_change SET sent = 1 WHERE id = ?", arguments: [id]) }
  }
}
