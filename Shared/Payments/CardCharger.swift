/// Charging a card a provider tokenised (``CardToken``), and refunding a charge: how ticketing
/// and dispatch take money. A deployment with a real provider implements it; each service's
/// default implementation records every charge in its own database and asks
/// ``TestPaymentProvider/authorizes(token:)`` whether the card pays.
///
/// `reference` makes a charge idempotent: the same reference again returns the first outcome
/// and never charges twice (a provider's idempotency key), so a caller that crashed between
/// charging and recording what it bought can charge again safely.
public protocol CardCharger: Sendable {
  /// - Throws: ``PaymentError/declined(_:)`` when the issuer refuses the charge.
  func charge(_ request: ChargeRequest) async throws -> ChargeReceipt
  /// Refunds `amountMinor` of a charge (at most what is left of it). `reference` names the refund
  /// as it names a charge.
  func refund(chargeID: String, amountMinor: Int64, reference: String) async throws -> ChargeReceipt
}

/// What to charge, to which card, and under which reference.
public struct ChargeRequest: Sendable, Hashable {
  /// The provider's token for the card (``CardToken/token``).
  public var cardToken: String
  /// What may be shown of the card: kept with the charge.
  public var cardLast4: String
  public var amountMinor: Int64
  /// ISO 4217: `EUR`.
  public var currency: String
  /// Unique per thing paid for (a purchase id): the idempotency key.
  public var reference: String
  /// What the card statement says.
  public var description: String

  public init(
    cardToken: String,
    cardLast4: String,
    amountMinor: Int64,
    currency: String,
    reference: String,
    description: String
  ) {
    self.cardToken = cardToken
    self.cardLast4 = cardLast4
    self.amountMinor = amountMinor
    self.currency = currency
    self.reference = reference
    self.description = description
  }
}

/// A charge or refund the provider accepted.
public struct ChargeReceipt: Sendable, Hashable {
  /// The provider's id of the charge (or refund).
  public var chargeID: String
  public var amountMinor: Int64
  public var currency: String
  public var cardLast4: String

  public init(chargeID: String, amountMinor: Int64, currency: String, cardLast4: String) {
    self.chargeID = chargeID
    self.amountMinor = amountMinor
    self.currency = currency
    self.cardLast4 = cardLast4
  }
}
