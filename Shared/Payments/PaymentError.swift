/// Why a payment provider refused a card.
public enum PaymentError: Error, Sendable, Hashable {
  /// The details are malformed: each problem names its field.
  case invalidCard([CardProblem])
  /// The card is well formed but the issuer refused it (a person should use another card).
  case declined(String)
}

/// One malformed part of a card.
public struct CardProblem: Sendable, Hashable {
  public enum Field: Sendable, Hashable {
    case number, expiryMonth, expiryYear, securityCode
  }

  public var field: Field
  public var description: String

  public init(field: Field, description: String) {
    self.field = field
    self.description = description
  }
}
