import BinarioPayments
import BinarioStorage
import Foundation
import GRDB

/// The default ``BinarioPayments/CardCharger``: the test provider decides
/// (``BinarioPayments/TestPaymentProvider/authorizes(token:)``) and every charge and refund is
/// recorded in ticketing's `charge` table (amount, card's last four digits, status). A
/// reference seen before returns its first outcome: nothing is charged twice.
public struct RecordingCardCharger: CardCharger {
  let store: TicketingStore
  let now: @Sendable () -> Date

  public init(store: TicketingStore, now: @escaping @Sendable () -> Date) {
    self.store = store
    self.now = now
  }

  public func charge(_ request: ChargeRequest) async throws -> ChargeReceipt {
    let approved = TestPaymentProvider.authorizes(token: request.cardToken)
    let row = try await store.recordCharge(
      reference: request.reference,
      kind: "charge",
      refunds: nil,
      amountMinor: request.amountMinor,
      currency: request.currency,
      cardLast4: request.cardLast4,
      approved: approved,
      description: request.description,
      at: now()
    )
    guard row.approved else { throw PaymentError.declined("the issuer refused the charge; use another card") }
    return row.receipt
  }

  public func refund(chargeID: String, amountMinor: Int64, reference: String) async throws -> ChargeReceipt {
    guard let charge = try await store.charge(id: chargeID), charge.approved else {
      throw PaymentError.declined("there is no charge \(chargeID) to refund")
    }
    let refunded = try await store.refundedAmount(chargeID: chargeID)
    if let earlier = try await store.charge(reference: reference) { return earlier.receipt }
    guard refunded + amountMinor <= charge.receipt.amountMinor else {
      throw PaymentError.declined("only \(charge.receipt.amountMinor - refunded) of the charge is left to refund")
    }
    return try await store.recordCharge(
      reference: reference,
      kind: "refund",
      refunds: chargeID,
      amountMinor: amountMinor,
      currency: charge.receipt.currency,
      cardLast4: charge.receipt.cardLast4,
      approved: true,
      description: "refund of \(chargeID)",
      at: now()
    ).receipt
  }
}

/// A row of the `charge` table.
public struct RecordedCharge: Sendable, Hashable {
  public var receipt: ChargeReceipt
  public var reference: String
  public var kind: String
  public var approved: Bool
}

extension TicketingStore {
  /// Inserts a charge unless its reference is known; returns the row for the reference.
  func recordCharge(
    reference: String,
    kind: String,
    refunds: String?,
    amountMinor: Int64,
    currency: String,
    cardLast4: String,
    approved: Bool,
    description: String,
    at now: Date
  ) async throws -> RecordedCharge {
    try await pool.write { db in
      try db.executeCached(
        sql: """
          INSERT INTO charge (id, reference, kind, refunds_charge_id, amount_minor, currency, card_last4, status,
            description, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (reference) DO NOTHING
          """,
        arguments: [
          "ch_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20), reference, kind, refunds,
          amountMinor, currency, cardLast4, approved ? "approved" : "declined", description, now.timeIntervalSince1970,
        ]
      )
      return try Self.charges(db, where: "reference = ?", [reference]).first!
    }
  }

  public func charge(id: String) async throws -> RecordedCharge? {
    try await pool.read { db in try Self.charges(db, where: "id = ?", [id]).first }
  }

  public func charge(reference: String) async throws -> RecordedCharge? {
    try await pool.read { db in try Self.charges(db, where: "reference = ?", [reference]).first }
  }

  /// Every charge and refund, oldest first (what tests and an operator read).
  public func charges() async throws -> [RecordedCharge] {
    try await pool.read { db in try Self.charges(db, where: "1", []) }
  }

  func refundedAmount(chargeID: String) async throws -> Int64 {
    try await pool.read { db in
      try Int64.fetchOne(
        try db.cachedStatement(sql: "SELECT COALESCE(SUM(amount_minor), 0) FROM charge WHERE refunds_charge_id = ? AND status = 'approved'"),
        arguments: [chargeID]
      ) ?? 0
    }
  }

  private static func charges(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [RecordedCharge] {
    try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM charge WHERE \(condition) ORDER BY created_at, rowid"), arguments: arguments).map {
      row in
      RecordedCharge(
        receipt: ChargeReceipt(
          chargeID: row["id"],
          amountMinor: row["amount_minor"],
          currency: row["currency"],
          cardLast4: row["card_last4"]
        ),
        reference: row["reference"],
        kind: row["kind"],
        approved: row["status"] == "approved"
      )
    }
  }
}
