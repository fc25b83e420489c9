import BinarioDomain
import BinarioPayments
import Foundation

extension IdentityDomain {
  /// Tokenises a card with the payment provider and keeps what it hands back (token, brand, last
  /// four digits, expiry); the card number and security code are never stored. The first card,
  /// or one added with `makeDefault`, becomes the default.
  ///
  /// `INVALID_ARGUMENT` naming each bad card field; `FAILED_PRECONDITION` for a declined card or
  /// when the account already has ``IdentityPolicy/maximumPaymentMethods`` cards.
  ///
  /// With `key`, the same key again answers the card it added, without asking the provider.
  public func addPaymentMethod(userID: String, card: PaymentCard, makeDefault: Bool, key: IdempotencyKey? = nil) async throws -> PaymentMethod {
    let account = try await callerAccount(userID)
    let id = key.id(prefix: "pm") { Self.newID() }
    if key != nil, let earlier = try await store.paymentMethods(accountID: account.id).first(where: { $0.id == id }) { return earlier }
    let now = clock.now()
    let token: CardToken
    do {
      token = try await paymentProvider.tokenize(card, currentMonth: Self.month(of: now))
    } catch .invalidCard(let problems) {
      throw ServiceError.invalid(problems.map { FieldProblem(field: $0.field.protoName, description: $0.description) })
    } catch .declined(let reason) {
      throw ServiceError.failedPrecondition(reason)
    }
    let method = PaymentMethod(
      id: id,
      providerToken: token.token,
      brand: token.brand,
      last4: token.last4,
      expiryMonth: token.expiryMonth,
      expiryYear: token.expiryYear,
      isDefault: false,
      createdAt: now
    )
    guard
      let stored = try await store.insertPaymentMethod(
        method,
        accountID: account.id,
        makeDefault: makeDefault,
        limit: policy.maximumPaymentMethods,
        at: now
      )
    else {
      throw ServiceError.failedPrecondition(
        "you already have \(policy.maximumPaymentMethods) cards; remove one before adding another"
      )
    }
    return stored
  }

  /// The caller's cards, the default first.
  public func paymentMethods(userID: String) async throws -> [PaymentMethod] {
    _ = try await callerAccount(userID)
    return try await store.paymentMethods(accountID: userID)
  }

  /// Removes a card of the caller's; if it was the default, the newest remaining card becomes it.
  public func removePaymentMethod(userID: String, paymentMethodID rawID: String) async throws {
    let id = try Self.requiredID(rawID, field: "payment_method_id", what: "a payment method id")
    guard try await store.removePaymentMethod(id: id, accountID: userID, at: clock.now()) else {
      throw ServiceError.notFound("you have no payment method \(id)")
    }
  }

  /// Makes a card of the caller's their default.
  public func setDefaultPaymentMethod(userID: String, paymentMethodID rawID: String) async throws -> PaymentMethod {
    let id = try Self.requiredID(rawID, field: "payment_method_id", what: "a payment method id")
    guard let method = try await store.setDefaultPaymentMethod(id: id, accountID: userID, at: clock.now()) else {
      throw ServiceError.notFound("you have no payment method \(id)")
    }
    return method
  }

  /// The month `date` falls in (UTC).
  static func month(of date: Date) -> CalendarMonth {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents([.year, .month], from: date)
    return CalendarMonth(year: parts.year ?? 1970, month: parts.month ?? 1)
  }
}

extension CardProblem.Field {
  /// The field's name in `AddPaymentMethodRequest`.
  var protoName: String {
    switch self {
    case .number: return "card_number"
    case .expiryMonth: return "expiry_month"
    case .expiryYear: return "expiry_year"
    case .securityCode: return "security_code"
    }
  }
}
