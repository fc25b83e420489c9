import Foundation

/// An amount of money: integer minor units (cents) and an ISO 4217 currency. Never a float.
public struct Money: Sendable, Hashable, Codable, CustomStringConvertible {
  public var amountMinor: Int64
  /// Three upper-case letters: `EUR`.
  public var currency: String

  public init(amountMinor: Int64, currency: String) {
    self.amountMinor = amountMinor
    self.currency = currency
  }

  /// Whether `code` looks like an ISO 4217 currency code (three letters A-Z).
  public static func isCurrencyCode(_ code: String) -> Bool {
    code.utf8.count == 3 && code.utf8.allSatisfy { (65 ... 90).contains($0) }
  }

  /// The amount split into `parts` shares that add up to it exactly: the first
  /// `amount % parts` shares get one minor unit more.
  public func split(into parts: Int) -> [Money] {
    guard parts > 0 else { return [] }
    let (share, remainder) = self.amountMinor.quotientAndRemainder(dividingBy: Int64(parts))
    return (0 ..< parts).map { Money(amountMinor: share + ($0 < remainder ? 1 : 0), currency: self.currency) }
  }

  /// `12.50 EUR`, for people.
  public var description: String {
    let sign = self.amountMinor < 0 ? "-" : ""
    let units = abs(self.amountMinor)
    let cents = units % 100
    return "\(sign)\(units / 100).\(cents < 10 ? "0" : "")\(cents) \(self.currency)"
  }
}

extension Money {
  /// How many digits the currency's minor unit has (ISO 4217): 0 for the yen, 3 for the dinars
  /// of Bahrain, Jordan, Kuwait…, else 2.
  public static func minorUnitDigits(_ currency: String) -> Int {
    switch currency {
    case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF":
      return 0
    case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND":
      return 3
    default:
      return 2
    }
  }
}

extension InputValidation {
  /// An amount of at least zero in a currency; returns it with the currency upper-cased.
  @discardableResult
  public mutating func money(_ amountMinor: Int64, currency rawCurrency: String, field: String) -> Money {
    let currency = rawCurrency.trimmingCharacters(in: .whitespaces).uppercased()
    if amountMinor < 0 { fail("\(field).amount_minor", "must not be negative") }
    if !Money.isCurrencyCode(currency) { fail("\(field).currency", "an ISO 4217 code such as EUR, not \"\(rawCurrency)\"") }
    return Money(amountMinor: amountMinor, currency: currency)
  }
}
