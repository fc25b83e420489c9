import BinarioPayments
import Foundation
import GRDB

/// The default ``RidePayments``: the test provider decides
/// (``BinarioPayments/TestPaymentProvider/authorizes(token:)``) and every hold, release and
/// charge is recorded in dispatch's `payment` table. A reference seen before returns its first
/// outcome: nothing is held or charged twice.
public struct RecordingRidePayments: RidePayments {
  let store: DispatchStore
  let now: @Sendable () -> Date

  public init(store: DispatchStore, now: @escaping @Sendable () -> Date) {
    self.store = store
    self.now = now
  }

  public func hold(_ request: ChargeRequest) async throws -> ChargeReceipt {
    try await record(request, kind: "hold", holdID: nil)
  }

  public func release(holdID: String, reference: String) async throws {
    _ = try await store.recordPayment(
      reference: reference,
      kind: "release",
      holdID: holdID,
      amountMinor: 0,
      currency: "",
      cardLast4: "",
      approved: true,
      description: "release of \(holdID)",
      at: now()
    )
  }

  public func charge(_ request: ChargeRequest) async throws -> ChargeReceipt {
    try await record(request, kind: "charge", holdID: nil)
  }

  func record(_ request: ChargeRequest, kind: String, holdID: String?) async throws -> ChargeReceipt {
    let approved = TestPaymentProvider.authorizes(token: request.cardToken)
    let row = try await store.recordPayment(
      reference: request.reference,
      kind: kind,
      holdID: holdID,
      amountMinor: request.amountMinor,
      currency: request.currency,
      cardLast4: request.cardLast4,
      approved: approved,
      description: request.description,
      at: now()
    )
    guard row.approved else { throw PaymentError.declined("the issuer refused the card; add another card and try again") }
    return row.receipt
  }
}

/// A row of the `payment` table.
public struct RecordedPayment: Sendable, Hashable {
  public var receipt: ChargeReceipt
  public var reference: String
  public var kind: String
  public var approved: Bool
}

extension DispatchStore {
  /// Inserts a payment unless its reference is known; returns the row for the reference.
  func recordPayment(
    reference: String,
    kind: String,
    holdID: String?,
    amountMinor: Int64,
    currency: String,
    cardLast4: String,
    approved: Bool,
    description: String,
    at instant: Date
  ) async throws -> RecordedPayment {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO payment (id, reference, kind, hold_id, amount_minor, currency, card_last4, approved, description, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (reference) DO NOTHING
          """,
        arguments: [
          "pay_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20), reference, kind, holdID,
          amountMinor, currency, cardLast4, approved, description, DispatchStore.seconds(instant),
        ]
      )
      return try Self.payments(db, where: "reference = ?", [reference]).first!
    }
  }

  /// Every payment recorded, oldest first (for tests and audits).
  public func payments() async throws -> [RecordedPayment] {
    try await pool.read { db in try Self.payments(db, where: "1", []) }
  }

  static func payments(_ db: Database, where condition: String, _ arguments: StatementArguments) throws -> [RecordedPayment] {
    try Row.fetchAll(db, sql: "SELECT * FROM payment WHERE \(condition) ORDER BY created_at, rowid", arguments: arguments).map {
      RecordedPayment(
        receipt: ChargeReceipt(chargeID: $0["id"], amountMinor: $0["amount_minor"], currency: $0["currency"], cardLast4: $0["card_last4"]),
        reference: $0["reference"],
        kind: $0["kind"],
        approved: $0["approved"]
      )
    }
  }
}
