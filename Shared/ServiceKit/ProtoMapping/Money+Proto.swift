import BinarioDomain
import BinarioProto

// Money in the contract (`binario.type.v1.Money`), the one mapping every handler uses.

extension Binario_Type_V1_Money {
  public init(_ money: Money) {
    self.init(minor: money.amountMinor, currency: money.currency)
  }

  public init(minor: Int64, currency: String) {
    self.init()
    self.amountMinor = minor
    self.currency = currency
  }

  public var money: Money { Money(amountMinor: amountMinor, currency: currency) }
}
