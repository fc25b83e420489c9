import BinarioDomain
import Foundation

/// Euro reference rates, as the European Central Bank publishes them each working day: how many
/// units of each currency one euro buys, on one day. What a person's totals in several currencies
/// are converted with to their main currency; never used to change a stored amount.
public struct ExchangeRates: Sendable, Hashable {
  /// The day they are the reference rates of.
  public var date: CalendarDate
  /// Per euro, by currency code (the euro itself is 1 and not listed).
  public var perEuro: [String: Decimal]

  public init(date: CalendarDate, perEuro: [String: Decimal]) {
    self.date = date
    self.perEuro = perEuro
  }

  public func rate(_ currency: String) -> Decimal? {
    currency == "EUR" ? 1 : perEuro[currency]
  }

  /// `amountMinor` of `from` in minor units of `to`, not rounded; `nil` without a rate for either.
  public func convert(_ amountMinor: Int64, from: String, to: String) -> Decimal? {
    if from == to { return Decimal(amountMinor) }
    guard let fromRate = rate(from), let toRate = rate(to) else { return nil }
    let digits = Money.minorUnitDigits(to) - Money.minorUnitDigits(from)
    var value = Decimal(amountMinor) * toRate / fromRate
    if digits > 0 {
      for _ in 0 ..< digits { value *= 10 }
    } else {
      for _ in 0 ..< -digits { value /= 10 }
    }
    return value
  }

  /// Rounded half away from zero to a whole number of minor units.
  public static func rounded(_ value: Decimal) -> Int64 {
    var value = value
    var result = Decimal()
    NSDecimalRound(&result, &value, 0, .plain)
    return NSDecimalNumber(decimal: result).int64Value
  }

  /// Reads the ECB's file: `eurofxref-daily.xml` (or the history, whose newest day is taken), or
  /// the CSV of `eurofxref.zip` ("Date, USD, JPY, …" and one row per day, dates as
  /// "27 November 2026" or 2026-11-27). Rates "N/A" are left out.
  public static func parse(_ text: String) throws -> ExchangeRates {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { throw ServiceError.invalid("content", "the ECB's reference rates file (XML or CSV) is required") }
    let rates = trimmed.hasPrefix("<") ? try parseXML(trimmed) : try parseCSV(trimmed)
    if rates.perEuro.isEmpty { throw ServiceError.invalid("content", "the file has no exchange rate") }
    return rates
  }

  private static func parseXML(_ text: String) throws -> ExchangeRates {
    // <Cube time='2026-11-27'> <Cube currency='USD' rate='1.0512'/> … </Cube>: the first day's.
    guard let day = text.firstMatch(of: /<Cube\s+time=["'](\d{4}-\d{2}-\d{2})["']\s*>/) else {
      throw ServiceError.invalid("content", "no <Cube time=\"…\"> day in the XML: not the ECB's reference rates file")
    }
    let dateText = String(day.output.1)
    let rest = text[day.range.upperBound...]
    let body = rest.firstMatch(of: /<Cube\s+time=/).map { rest[..<$0.range.lowerBound] } ?? rest
    guard let date = CalendarDate(iso: dateText) else { throw ServiceError.invalid("content", "the day \(dateText) is not a date") }
    var perEuro: [String: Decimal] = [:]
    for rate in body.matches(of: /<Cube\s+currency=["']([A-Za-z]{3})["']\s+rate=["']([0-9.]+)["']\s*\/>/) {
      try add(String(rate.output.1), String(rate.output.2), to: &perEuro)
    }
    return ExchangeRates(date: date, perEuro: perEuro)
  }

  private static func parseCSV(_ text: String) throws -> ExchangeRates {
    let lines = text.split(whereSeparator: \.isNewline).map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }
    guard lines.count >= 2, lines[0].first?.lowercased() == "date" else {
      throw ServiceError.invalid("content", "the CSV starts with \"Date, USD, …\": not the ECB's reference rates file")
    }
    let header = lines[0]
    // The newest day: the history lists it first.
    let row = lines[1]
    guard let date = Self.date(row[0]) else { throw ServiceError.invalid("content", "\"\(row[0])\" is not a date") }
    var perEuro: [String: Decimal] = [:]
    for (currency, value) in zip(header.dropFirst(), row.dropFirst()) where !currency.isEmpty && value != "N/A" && !value.isEmpty {
      try add(currency, value, to: &perEuro)
    }
    return ExchangeRates(date: date, perEuro: perEuro)
  }

  private static func add(_ rawCurrency: String, _ value: String, to perEuro: inout [String: Decimal]) throws {
    let currency = rawCurrency.uppercased()
    guard Money.isCurrencyCode(currency) else { throw ServiceError.invalid("content", "\"\(rawCurrency)\" is not a currency code") }
    guard value.allSatisfy({ $0.isASCIIDigit || $0 == "." }), let rate = Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")), rate > 0
    else { throw ServiceError.invalid("content", "the rate of \(currency), \"\(value)\", is not a positive number") }
    if currency != "EUR" { perEuro[currency] = rate }
  }

  /// "27 November 2026" (the daily CSV) or "2026-11-27" (the history's).
  private static func date(_ text: String) -> CalendarDate? {
    if let date = CalendarDate(iso: text) { return date }
    let parts = text.split(separator: " ")
    let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
    guard parts.count == 3, let day = Int(parts[0]), let month = months.firstIndex(of: parts[1].lowercased()), let year = Int(parts[2])
    else { return nil }
    return CalendarDate(year: year, month: month + 1, day: day)
  }
}

extension SubscriptionsDomain {
  /// Replaces the rates in force with the file's (the operator's).
  public func loadExchangeRates(_ content: String) async throws -> ExchangeRates {
    let rates = try ExchangeRates.parse(content)
    try await store.replaceExchangeRates(rates)
    return rates
  }

  public func exchangeRates() async throws -> ExchangeRates? {
    try await store.exchangeRates()
  }
}
