/// Card details as a person types them. They go to a ``PaymentProvider`` to be tokenised and are
/// never stored.
public struct PaymentCard: Sendable, Hashable {
  /// Digits; spaces and dashes are tolerated.
  public var number: String
  /// 1-12.
  public var expiryMonth: Int
  /// Four digits, e.g. 2029.
  public var expiryYear: Int
  /// The 3 (4 for American Express) digits on the card.
  public var securityCode: String

  public init(number: String, expiryMonth: Int, expiryYear: Int, securityCode: String) {
    self.number = number
    self.expiryMonth = expiryMonth
    self.expiryYear = expiryYear
    self.securityCode = securityCode
  }
}

/// What a payment provider hands back for a card: a token to charge it with, and what may be
/// shown of it.
public struct CardToken: Sendable, Hashable {
  /// Opaque; charges name the card by it.
  public var token: String
  /// `visa`, `mastercard`, `amex`, or `card` for a brand this provider does not name.
  public var brand: String
  public var last4: String
  public var expiryMonth: Int
  public var expiryYear: Int

  public init(token: String, brand: String, last4: String, expiryMonth: Int, expiryYear: Int) {
    self.token = token
    self.brand = brand
    self.last4 = last4
    self.expiryMonth = expiryMonth
    self.expiryYear = expiryYear
  }
}

/// A month of the calendar (UTC): what card expiry is compared with.
public struct CalendarMonth: Sendable, Hashable, Comparable {
  public var year: Int
  public var month: Int

  public init(year: Int, month: Int) {
    self.year = year
    self.month = month
  }

  public static func < (lhs: CalendarMonth, rhs: CalendarMonth) -> Bool {
    (lhs.year, lhs.month) < (rhs.year, rhs.month)
  }
}
