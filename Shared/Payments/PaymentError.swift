import BinarioDomain

/// Why a payment provider refused a card.
public enum PaymentError: Error, Sendable, Hashable {
  /// The details are malformed: each problem names its field.
  case invalidCard([CardProblem])
  /// The card is well formed but the issuer refused it (a person should use another card).
  case declined(PersonText)
}

/// One malformed part of a card.
public struct CardProblem: Sendable, Hashable {
  public enum Field: Sendable, Hashable {
    case number, expiryMonth, expiryYear, securityCode
  }

  public var field: Field
  public var description: PersonText

  public init(field: Field, description: PersonText) {
    self.field = field
    self.description = description
  }
}
