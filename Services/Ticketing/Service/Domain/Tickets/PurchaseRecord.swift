import BinarioDomain
import Foundation

/// A purchase: one quote paid for once, under the buyer's idempotency key.
public struct PurchaseRecord: Sendable, Hashable {
  public enum Status: String, Sendable, Hashable {
    /// Claimed the key; the charge's outcome is not recorded yet (a crash here is resumed by a
    /// retry with the same key, which charges under the same reference: never twice).
    case pending
    case completed
    /// The card was declined: the same key answers the same refusal.
    case declined
  }

  public var id: String
  public var userID: String
  public var idempotencyKey: String
  public var quoteID: String
  public var status: Status
  public var total: Money
  public var paymentMethodID: String
  public var cardLast4: String
  public var chargeID: String?
  /// Why the card was declined, in every language.
  public var failure: TranslatedText?
  public var createdAt: Date
  public var tickets: [Ticket]
  /// What was refunded of it so far.
  public var refunded: Money

  public init(
    id: String,
    userID: String,
    idempotencyKey: String,
    quoteID: String,
    status: Status,
    total: Money,
    paymentMethodID: String,
    cardLast4: String,
    chargeID: String?,
    failure: TranslatedText?,
    createdAt: Date,
    tickets: [Ticket],
    refunded: Money
  ) {
    self.id = id
    self.userID = userID
    self.idempotencyKey = idempotencyKey
    self.quoteID = quoteID
    self.status = status
    self.total = total
    self.paymentMethodID = paymentMethodID
    self.cardLast4 = cardLast4
    self.chargeID = chargeID
    self.failure = failure
    self.createdAt = createdAt
    self.tickets = tickets
    self.refunded = refunded
  }
}

/// A run a user starts or stops following in scheduling because of a ticket: recorded with the
/// ticket's purchase or refund, sent after the commit, retried until scheduling has it.
public struct RunFollowChange: Sendable, Hashable {
  public var id: Int64
  public var userID: String
  public var run: RunReference
  public var following: Bool
  /// Where the ticket boards and leaves the run (empty: the run's ends).
  public var fromStationID: String
  public var toStationID: String

  public init(id: Int64, userID: String, run: RunReference, following: Bool, fromStationID: String = "", toStationID: String = "") {
    self.id = id
    self.userID = userID
    self.run = run
    self.following = following
    self.fromStationID = fromStationID
    self.toStationID = toStationID
  }
}
