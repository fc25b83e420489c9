/// The one way Binario's services reach a payment provider. A deployment with a real provider
/// implements it; ``TestPaymentProvider`` is the default.
///
/// Services keep only what ``tokenize(_:currentMonth:)`` hands back (``CardToken``): never the
/// card number or its security code.
public protocol PaymentProvider: Sendable {
  /// Checks a card and exchanges it for a token.
  /// - Parameter currentMonth: The month now (UTC): a card that expired before it is refused.
  /// - Throws: ``PaymentError``.
  func tokenize(_ card: PaymentCard, currentMonth: CalendarMonth) async throws(PaymentError) -> CardToken
}
