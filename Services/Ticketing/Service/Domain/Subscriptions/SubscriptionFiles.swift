import BinarioDomain
import Crypto
import Foundation

/// A person's subscriptions as a file, out and in: Binario's CSV (every field, read back as
/// written) and Wallos's export (the popular self-hosted tracker's "Export as JSON" and "Export as
/// CSV"), so people can move in and out.
///
/// Wallos's rows say less than Binario's: a row's start is its next payment less one period, its
/// category is mapped by name (Entertainment → movies and TV, Software → tech, ...; others to
/// other), its price is a symbol or code and an amount ("€9.99", "$5", "12 CHF"), and a cycle
/// Binario cannot count (daily, every two weeks, every six months) is refused by its row. Payment
/// method, payer, notes and URL have nowhere to go and are left out.
public enum SubscriptionFile {
  public enum Format: String, Sendable, Hashable, CaseIterable {
    case binarioCSV, wallosJSON, wallosCSV

    public var fileName: String { self == .wallosJSON ? "subscriptions.json" : "subscriptions.csv" }
    public var mediaType: String { self == .wallosJSON ? "application/json" : "text/csv" }
  }

  /// One row read: the draft to add, and what its life was.
  public struct Row: Sendable {
    public var line: Int
    public var draft: SubscriptionsDomain.Draft
    public var nextRenewal: CalendarDate?
    public var pausedOn: CalendarDate?
    public var endsOn: CalendarDate?
  }

  /// A row that cannot be added, and why.
  public struct Problem: Sendable, Hashable {
    public var line: Int
    public var name: String
    public var reason: PersonText
  }

  static let binarioColumns = [
    "service", "plan", "category", "period", "price", "currency", "start_date", "automatic_renewal", "card_last4",
    "trial_ends_on", "reminder_days", "status", "next_date", "paused_on", "last_day", "shared_with",
  ]
  static let wallosColumns = [
    "Name", "Payment Cycle", "Next Payment", "Renewal", "Category", "Payment Method", "Paid By", "Price", "Notes", "URL", "State",
    "Notifications", "Cancellation Date", "Active",
  ]

  // MARK: - Writing

  /// The owner's subscriptions in `format`; `emails` by user id (the members' in Binario's CSV).
  public static func render(_ subscriptions: [Subscription], format: Format, emails: [String: String], today: CalendarDate) -> String {
    switch format {
    case .binarioCSV:
      return CSVLine.encode(binarioColumns)
        + subscriptions.map { subscription in
          let details = subscription.details
          return CSVLine.encode([
            details.serviceName, details.planType, categoryNames[details.category]!, details.period.rawValue,
            decimal(details.price), details.price.currency, details.startDate.description, details.automaticRenewal ? "yes" : "no",
            details.cardLast4, details.trialEndsOn?.description ?? "", details.reminderDays.map(String.init) ?? "",
            subscription.status(on: today).rawValue, subscription.nextRenewal.description, subscription.pausedOn?.description ?? "",
            subscription.endsOn?.description ?? "", subscription.memberIDs.compactMap { emails[$0] }.joined(separator: ";"),
          ])
        }.joined()
    case .wallosCSV:
      // As Wallos writes it: no quoting, commas in text made spaces.
      let rows = subscriptions.map { wallos($0, today: today).map { $0.replacingOccurrences(of: ",", with: " ") }.joined(separator: ",") }
      return ([wallosColumns.joined(separator: ",")] + rows).joined(separator: "\n") + "\n"
    case .wallosJSON:
      let objects = subscriptions.map { Dictionary(uniqueKeysWithValues: zip(wallosColumns, wallos($0, today: today))) }
      let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
      return String(decoding: data, as: UTF8.self)
    }
  }

  private static func wallos(_ subscription: Subscription, today: CalendarDate) -> [String] {
    let details = subscription.details
    let status = subscription.status(on: today)
    let running = status != .paused && status != .ended
    let cycle: String =
      switch details.period {
      case .weekly: "Weekly"
      case .monthly: "Monthly"
      case .quarterly: "Every 3 Months"
      case .yearly: "Yearly"
      }
    let symbol = writtenSymbols[details.price.currency]
    return [
      details.serviceName, cycle, subscription.nextRenewal.description, details.automaticRenewal ? "Automatic" : "Manual",
      wallosCategoryNames[details.category]!, details.cardLast4.isEmpty ? "" : "Card \(details.cardLast4)", "",
      symbol.map { "\($0)\(decimal(details.price))" } ?? "\(decimal(details.price)) \(details.price.currency)", details.planType, "",
      running ? "Enabled" : "Disabled", "Enabled", subscription.endsOn?.description ?? "", running ? "Yes" : "No",
    ]
  }

  /// 12.50, or 1250 for the yen: the amount in major units, as many decimals as the currency has.
  static func decimal(_ money: Money) -> String {
    let digits = Money.minorUnitDigits(money.currency)
    guard digits > 0 else { return String(money.amountMinor) }
    let scale = Int64(pow(10, Double(digits)))
    let units = abs(money.amountMinor)
    let fraction = String(units % scale)
    return "\(money.amountMinor < 0 ? "-" : "")\(units / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
  }

  // MARK: - Reading

  /// The format of `content`: Wallos's JSON (an array, or its export's `{"subscriptions": [...]}`),
  /// Wallos's CSV (its header), else Binario's CSV.
  public static func format(of content: String) -> Format {
    let start = content.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
    if start.hasPrefix("[") || start.hasPrefix("{") { return .wallosJSON }
    return start.hasPrefix("Name,Payment Cycle") || start.hasPrefix("Name,Next Payment") ? .wallosCSV : .binarioCSV
  }

  /// The rows of `content` that can be added, and the problems of those that cannot.
  public static func parse(_ content: String) throws -> (Format, [Row], [Problem]) {
    let format = format(of: content)
    var rows: [Row] = []
    var problems: [Problem] = []
    switch format {
    case .wallosJSON:
      let entries: [[String: Any]]
      switch try? JSONSerialization.jsonObject(with: Data(content.utf8)) {
      case let array as [[String: Any]]: entries = array
      case let object as [String: Any]: entries = (object["subscriptions"] as? [[String: Any]]) ?? []
      default: throw ServiceError.invalid("content", "the file is neither CSV nor the JSON Wallos exports")
      }
      for (index, entry) in entries.enumerated() {
        let fields = entry.mapValues { value in (value as? String) ?? (value as? NSNumber)?.stringValue ?? "" }
        collect(wallosRow(line: index + 1, fields), into: &rows, &problems)
      }
    case .wallosCSV, .binarioCSV:
      let table: CSVTable
      do {
        table = try CSVTable(file: format.fileName, bytes: Array(content.utf8))
      } catch {
        throw ServiceError.invalid("content", "the CSV cannot be read: \(error.description)")
      }
      let required = format == .wallosCSV ? ["Name", "Next Payment", "Price"] : ["service", "period", "price", "currency", "start_date", "category"]
      let missing = required.filter { !table.header.contains($0) }
      if !missing.isEmpty {
        throw ServiceError.invalid("content", "the CSV has no column \(missing.joined(separator: ", ")): not a subscriptions file")
      }
      for row in table.rows {
        var fields: [String: String] = [:]
        for column in table.header { fields[column] = row.value(column) ?? "" }
        collect(format == .wallosCSV ? wallosRow(line: row.line, fields) : binarioRow(line: row.line, fields), into: &rows, &problems)
      }
    }
    return (format, rows, problems)
  }

  private static func collect(_ result: Result<Row, RowProblem>, into rows: inout [Row], _ problems: inout [Problem]) {
    switch result {
    case .success(let row): rows.append(row)
    case .failure(let problem): problems.append(problem.problem)
    }
  }

  /// A row's refusal, as an Error so rows read with `Result`.
  struct RowProblem: Error {
    var problem: Problem
  }

  private static func binarioRow(line: Int, _ fields: [String: String]) -> Result<Row, RowProblem> {
    let name = fields["service", default: ""]
    func refuse(reason: PersonText) -> Result<Row, RowProblem> { .failure(RowProblem(problem: Problem(line: line, name: name, reason: reason))) }
    guard let period = SubscriptionPeriod(rawValue: fields["period", default: ""].lowercased()) else {
      return refuse(reason: "the period is weekly, monthly, quarterly or yearly, not \"\(fields["period", default: ""])\"")
    }
    guard let category = categoryNames.first(where: { $0.value == fields["category", default: ""].lowercased() })?.key else {
      return refuse(reason: "\"\(fields["category", default: ""])\" is not a category")
    }
    let currency = fields["currency", default: ""].uppercased()
    guard let minor = minorUnits(fields["price", default: ""], currency: currency) else {
      return refuse(reason: "the price \"\(fields["price", default: ""])\" is not an amount in \(currency)")
    }
    var draft = draft(name: name, plan: fields["plan", default: ""], category: category, period: period, minor: minor, currency: currency)
    draft.startDate = fields["start_date", default: ""]
    draft.automaticRenewal = ["yes", "true", "1"].contains(fields["automatic_renewal", default: ""].lowercased())
    draft.cardLast4 = fields["card_last4", default: ""]
    draft.trialEndsOn = fields["trial_ends_on", default: ""]
    if let days = fields["reminder_days"], !days.isEmpty {
      guard let value = Int(days) else { return refuse(reason: "the reminder days \"\(days)\" are not a number") }
      draft.reminderDays = value
    }
    draft.sharedWithEmails = fields["shared_with", default: ""].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    let status = fields["status", default: ""].lowercased()
    return .success(
      Row(
        line: line,
        draft: draft,
        nextRenewal: CalendarDate(iso: fields["next_date", default: ""]),
        pausedOn: status == "paused" ? CalendarDate(iso: fields["paused_on", default: ""]) : nil,
        endsOn: status == "cancelled" || status == "ended" ? CalendarDate(iso: fields["last_day", default: ""]) : nil
      )
    )
  }

  private static func wallosRow(line: Int, _ fields: [String: String]) -> Result<Row, RowProblem> {
    let name = fields["Name", default: ""].trimmingCharacters(in: .whitespaces)
    func refuse(reason: PersonText) -> Result<Row, RowProblem> { .failure(RowProblem(problem: Problem(line: line, name: name, reason: reason))) }
    let cycleText = fields["Payment Cycle", default: "Monthly"].trimmingCharacters(in: .whitespaces)
    guard let period = wallosPeriod(cycleText.isEmpty ? "Monthly" : cycleText) else {
      return refuse(reason: "Binario counts weekly, monthly, quarterly or yearly payments, not \"\(cycleText)\"")
    }
    guard let next = CalendarDate(iso: fields["Next Payment", default: ""].trimmingCharacters(in: .whitespaces)) else {
      return refuse(reason: "the next payment \"\(fields["Next Payment", default: ""])\" is not a date YYYY-MM-DD")
    }
    guard let (currency, amount) = wallosPrice(fields["Price", default: ""]) else {
      return refuse(reason: "the price \"\(fields["Price", default: ""])\" has no currency Binario knows: write its code, as in 12.50 EUR")
    }
    guard let minor = minorUnits(amount, currency: currency) else {
      return refuse(reason: "the price \"\(fields["Price", default: ""])\" is not an amount in \(currency)")
    }
    let category = wallosCategories[fields["Category", default: ""].trimmingCharacters(in: .whitespaces).lowercased()] ?? .other
    var draft = draft(
      name: name,
      plan: fields["Notes", default: ""].count <= 60 ? fields["Notes", default: ""] : "",
      category: category,
      period: period,
      minor: minor,
      currency: currency
    )
    let start = Subscription.renewal(start: next, period: period, number: -1)
    draft.startDate = start.description
    draft.automaticRenewal = fields["Renewal", default: "Automatic"].lowercased() != "manual"
    let cancelled = CalendarDate(iso: fields["Cancellation Date", default: ""].trimmingCharacters(in: .whitespaces))
    let inactive = fields["State", default: ""].lowercased() == "disabled" || fields["Active", default: ""].lowercased() == "no"
    return .success(
      Row(
        line: line,
        draft: draft,
        nextRenewal: next,
        pausedOn: inactive && cancelled == nil ? next : nil,
        endsOn: cancelled.map { max($0, start) }
      )
    )
  }

  private static func draft(
    name: String,
    plan: String,
    category: SubscriptionCategory,
    period: SubscriptionPeriod,
    minor: Int64,
    currency: String
  ) -> SubscriptionsDomain.Draft {
    let listed = SubscriptionDetails.serviceNames.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
    let plan = plan.trimmingCharacters(in: .whitespaces)
    let listedPlan = SubscriptionDetails.planTypes.contains { $0.caseInsensitiveCompare(plan) == .orderedSame }
    return SubscriptionsDomain.Draft(
      serviceName: name,
      customServiceName: !listed,
      planType: plan,
      customPlanType: !plan.isEmpty && !listedPlan,
      startDate: "",
      period: period,
      priceMinor: minor,
      currency: currency,
      cardLast4: "",
      automaticRenewal: true,
      category: category,
      sharedWith: []
    )
  }

  /// "12.50" (or "12,50") in minor units of `currency`; nil when it is not an amount or has more
  /// decimals than the currency.
  static func minorUnits(_ text: String, currency: String) -> Int64? {
    guard Money.isCurrencyCode(currency) else { return nil }
    var text = text.trimmingCharacters(in: .whitespaces)
    if !text.contains("."), text.filter({ $0 == "," }).count == 1 { text = text.replacingOccurrences(of: ",", with: ".") }
    text = text.replacingOccurrences(of: ",", with: "")
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1 ... 2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), !parts[0].isEmpty else { return nil }
    let digits = Money.minorUnitDigits(currency)
    let fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.count <= digits, let whole = Int64(parts[0]), whole < 1_000_000_000 else { return nil }
    let padded = fraction + String(repeating: "0", count: digits - fraction.count)
    return whole * Int64(pow(10, Double(digits))) + (Int64(padded) ?? 0)
  }

  /// "€9.99", "$5", "9,99 €", "CHF 12", "12.50 EUR": the currency and the amount's text.
  static func wallosPrice(_ text: String) -> (String, String)? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let amountStart = trimmed.firstIndex { $0.isASCIIDigit } ?? trimmed.endIndex
    let amountEnd = trimmed.lastIndex { $0.isASCIIDigit }.map { trimmed.index(after: $0) } ?? trimmed.endIndex
    guard amountStart < amountEnd else { return nil }
    let marker = (String(trimmed[..<amountStart]) + String(trimmed[amountEnd...])).trimmingCharacters(in: .whitespaces)
    let amount = String(trimmed[amountStart ..< amountEnd])
    if Money.isCurrencyCode(marker.uppercased()) { return (marker.uppercased(), amount) }
    return symbols[marker].map { ($0, amount) }
  }

  private static func wallosPeriod(_ text: String) -> SubscriptionPeriod? {
    switch text.lowercased() {
    case "weekly", "every 1 weeks": return .weekly
    case "monthly", "every 1 months": return .monthly
    case "every 3 months": return .quarterly
    case "yearly", "every 1 years", "every 12 months": return .yearly
    default: return nil
    }
  }

  /// The currency symbols Wallos writes, by symbol; "kr" (Swedish, Danish, Norwegian) is not
  /// among them: it names three.
  static let symbols: [String: String] = [
    "€": "EUR", "$": "USD", "US$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR", "Fr": "CHF", "R$": "BRL", "A$": "AUD",
    "C$": "CAD", "zł": "PLN", "Kč": "CZK", "₽": "RUB", "₺": "TRY", "₩": "KRW", "Ft": "HUF", "lei": "RON", "₪": "ILS",
  ]

  /// The symbols Binario writes for Wallos (another currency is written as its code after the amount).
  static let writtenSymbols = ["EUR": "€", "USD": "$", "GBP": "£", "JPY": "¥", "INR": "₹"]

  /// The category names of Binario's CSV (as the CLI writes them).
  static let categoryNames: [SubscriptionCategory: String] = [
    .moviesAndTV: "movies-and-tv", .music: "music", .shopping: "shopping", .tech: "tech", .other: "other", .transport: "transport",
  ]
  static let wallosCategoryNames: [SubscriptionCategory: String] = [
    .moviesAndTV: "Entertainment", .music: "Music", .shopping: "Shopping", .tech: "Technology", .other: "No category",
    .transport: "Transport",
  ]
  /// Wallos's default categories (and a few common ones), lower-cased, to Binario's.
  static let wallosCategories: [String: SubscriptionCategory] = [
    "entertainment": .moviesAndTV, "streaming": .moviesAndTV, "movies": .moviesAndTV, "tv": .moviesAndTV, "video": .moviesAndTV,
    "music": .music, "shopping": .shopping, "technology": .tech, "software": .tech, "cloud services": .tech,
    "productivity": .tech, "gaming": .tech, "tech": .tech, "transport": .transport,
  ]
}

extension SubscriptionsDomain {
  /// The user's own subscriptions as a file.
  public func export(userID: String, format: SubscriptionFile.Format) async throws -> (content: String, count: Int) {
    let mine = try await list(userID: userID).mine
    let emails = await people(in: mine).mapValues(\.email)
    return (SubscriptionFile.render(mine, format: format, emails: emails, today: today), mine.count)
  }

  /// Adds each row of `content` the owner can have; the rows that cannot be added are named with
  /// why. Each row's idempotency key is the file's digest and the row's line, so the same file
  /// again adds nothing. A row shared with someone who is not a friend is added unshared, and
  /// said so.
  public func importFile(
    userID: String,
    content: String
  ) async throws -> (
    format: SubscriptionFile.Format, added: [Subscription], problems: [SubscriptionFile.Problem]
  ) {
    if content.utf8.count > 1 << 20 { throw ServiceError.invalid("content", "a file of at most 1 MB") }
    let (format, rows, problems) = try SubscriptionFile.parse(content)
    if rows.count > 500 { throw ServiceError.invalid("content", "at most 500 subscriptions a file") }
    let digest = SHA256.hash(data: Data(content.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    var added: [Subscription] = []
    var found = problems
    for row in rows {
      let key = "import:\(digest):\(row.line)"
      do {
        var subscription: Subscription
        do {
          subscription = try await add(ownerID: userID, row.draft, idempotencyKey: key, nextRenewal: row.nextRenewal)
        } catch ServiceError.invalid(let fieldProblems) where fieldProblems.allSatisfy({ $0.field.hasPrefix("shared_with") }) {
          var unshared = row.draft
          unshared.sharedWithEmails = []
          subscription = try await add(ownerID: userID, unshared, idempotencyKey: key, nextRenewal: row.nextRenewal)
          found.append(
            SubscriptionFile.Problem(line: row.line, name: row.draft.serviceName, reason: "added without sharing: \(fieldProblems[0].description)")
          )
        }
        if let endsOn = row.endsOn, subscription.endsOn == nil {
          subscription = try await cancel(userID: userID, subscriptionID: subscription.id, endsOn: endsOn.description)
        } else if row.pausedOn != nil, subscription.pausedOn == nil, subscription.endsOn == nil {
          subscription = try await pause(userID: userID, subscriptionID: subscription.id)
        }
        added.append(subscription)
      } catch let error as ServiceError {
        found.append(.init(line: row.line, name: row.draft.serviceName, reason: error.message))
      }
    }
    return (format, added, found.sorted { $0.line < $1.line })
  }
}
