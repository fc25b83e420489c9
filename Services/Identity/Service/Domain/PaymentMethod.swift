import Foundation

/// A card on file, as the payment provider handed it back: its token, never its number or code.
public struct PaymentMethod: Sendable, Hashable {
  public var id: String
  /// What the provider charges (``BinarioPayments/CardToken/token``). Only the services that
  /// charge read it; users never see it.
  public var providerToken: String
  public var brand: String
  public var last4: String
  public var expiryMonth: Int
  public var expiryYear: Int
  public var isDefault: Bool
  public var createdAt: Date

  public init(
    id: String,
    providerToken: String,
    brand: String,
    last4: String,
    expiryMonth: Int,
    expiryYear: Int,
    isDefault: Bool,
    createdAt: Date
  ) {
    self.id = id
    self.providerToken = providerToken
    self.brand = brand
    self.last4 = last4
    self.expiryMonth = expiryMonth
    self.expiryYear = expiryYear
    self.isDefault = isDefault
    self.createdAt = createdAt
  }
}
