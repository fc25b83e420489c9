/// A payment provider that needs no network: it checks a card the way a provider would (Luhn
/// checksum, brand from the number's prefix, expiry, security code length) and makes a random
/// token locally.
///
/// Documented test numbers (the same as Stripe's test mode):
/// - `4242 4242 4242 4242` (Visa), `5555 5555 5555 4444` (Mastercard), `3782 822463 10005`
///   (American Express) are accepted;
/// - ``declinedCardNumber`` `4000 0000 0000 0002` is declined;
/// - ``chargeDeclinedCardNumber`` `4000 0000 0000 0341` is accepted (it can be saved) but every
///   charge to it is declined (``authorizes(token:)``).
public struct TestPaymentProvider: PaymentProvider {
  /// The number this provider always declines.
  public static let declinedCardNumber = "4000000000000002"
  /// A card that can be saved but whose charges are declined.
  public static let chargeDeclinedCardNumber = "4000000000000341"
  /// How the token of ``chargeDeclinedCardNumber`` starts.
  static let chargeDeclinedTokenPrefix = "tok_test_chargeDeclined_"

  /// Whether a charge to the card `token` names goes through: every card this provider
  /// tokenised but ``chargeDeclinedCardNumber``.
  public static func authorizes(token: String) -> Bool {
    !token.hasPrefix(chargeDeclinedTokenPrefix)
  }

  public init() {}

  public func tokenize(_ card: PaymentCard, currentMonth: CalendarMonth) async throws(PaymentError) -> CardToken {
    let number = try Self.checked(card, currentMonth: currentMonth)
    if number == Self.declinedCardNumber {
      throw .declined("the card was declined by its issuer; use another card")
    }
    return CardToken(
      token: (number == Self.chargeDeclinedCardNumber ? Self.chargeDeclinedTokenPrefix : "tok_test_") + Self.randomToken(),
      brand: Self.brand(of: number),
      last4: String(number.suffix(4)),
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear
    )
  }

  /// The card's digits, or every problem with it.
  static func checked(_ card: PaymentCard, currentMonth: CalendarMonth) throws(PaymentError) -> String {
    var problems: [CardProblem] = []
    let number = card.number.filter { $0 != " " && $0 != "-" }
    let brand = brand(of: number)
    if number.isEmpty {
      problems.append(CardProblem(field: .number, description: "a card number is required"))
    } else if !number.allSatisfy({ $0.isASCII && $0.isNumber }) || !(12 ... 19).contains(number.count) {
      problems.append(CardProblem(field: .number, description: "a card number is 12 to 19 digits"))
    } else if !passesLuhn(number) {
      problems.append(CardProblem(field: .number, description: "this is not a valid card number (check the digits)"))
    }
    var monthOK = true
    if !(1 ... 12).contains(card.expiryMonth) {
      problems.append(CardProblem(field: .expiryMonth, description: "the expiry month is 1 to 12"))
      monthOK = false
    }
    if !(2000 ... 2099).contains(card.expiryYear) {
      problems.append(CardProblem(field: .expiryYear, description: "the expiry year has four digits, e.g. 2029"))
    } else if card.expiryYear < currentMonth.year
      || (monthOK && CalendarMonth(year: card.expiryYear, month: card.expiryMonth) < currentMonth)
    {
      problems.append(CardProblem(field: .expiryYear, description: "the card has expired"))
    }
    let codeLength = brand == "amex" ? 4 : 3
    if card.securityCode.count != codeLength || !card.securityCode.allSatisfy({ $0.isASCII && $0.isNumber }) {
      problems.append(
        CardProblem(field: .securityCode, description: "the security code is the \(codeLength) digits on the card")
      )
    }
    if !problems.isEmpty { throw .invalidCard(problems) }
    return number
  }

  /// The Luhn checksum every card number carries in its last digit.
  public static func passesLuhn(_ digits: String) -> Bool {
    var sum = 0
    for (index, character) in digits.reversed().enumerated() {
      guard var digit = character.wholeNumberValue else { return false }
      if index % 2 == 1 {
        digit *= 2
        if digit > 9 { digit -= 9 }
      }
      sum += digit
    }
    return sum % 10 == 0
  }

  /// The brand from the issuer prefix.
  static func brand(of number: String) -> String {
    let two = Int(number.prefix(2)) ?? -1
    let four = Int(number.prefix(4)) ?? -1
    if number.hasPrefix("4") { return "visa" }
    if (51 ... 55).contains(two) || (2221 ... 2720).contains(four) { return "mastercard" }
    if two == 34 || two == 37 { return "amex" }
    return "card"
  }

  static func randomToken() -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    return String((0 ..< 24).map { _ in alphabet[Int.random(in: 0 ..< alphabet.count, using: &generator)] })
  }
}
