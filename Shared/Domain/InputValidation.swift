import Foundation

/// The checks the services apply to what people type, collecting every problem so one answer
/// names every bad field.
///
/// ```swift
/// var check = InputValidation()
/// let email = check.email(details.email, field: "email")
/// check.password(details.password, field: "password", email: email)
/// try check.finish()   // throws ServiceError.invalid naming each bad field
/// ```
public struct InputValidation: Sendable {
  public private(set) var problems: [FieldProblem] = []

  public init() {}

  /// Records a problem with `field`.
  public mutating func fail(_ field: String, _ description: PersonText) {
    self.problems.append(FieldProblem(field: field, description: description))
  }

  /// Throws ``ServiceError/invalid(_:)`` if any check failed.
  public func finish() throws(ServiceError) {
    if !self.problems.isEmpty { throw .invalid(self.problems) }
  }

  /// The address trimmed and lower-cased, checked for the shape `local@domain.tld`.
  @discardableResult
  public mutating func email(_ raw: String, field: String) -> String {
    let email = Self.normalizedEmail(raw)
    if email.isEmpty {
      fail(field, "an email address is required")
    } else if !Self.isEmail(email) {
      fail(field, "\"\(raw)\" is not an email address (expected name@example.com)")
    }
    return email
  }

  /// At least 10 characters, at least one letter and one digit, not the email address.
  public mutating func password(_ password: String, field: String, email: String) {
    var reasons: [PersonText] = []
    if password.count < 10 { reasons.append("at least 10 characters" as PersonText) }
    if !password.contains(where: \.isLetter) { reasons.append("a letter" as PersonText) }
    if !password.contains(where: \.isNumber) { reasons.append("a digit" as PersonText) }
    if !reasons.isEmpty {
      fail(field, "the password needs \(PersonText.list(reasons))")
    } else if !email.isEmpty,
      password.lowercased().contains(email.lowercased()) || password.lowercased() == email.split(separator: "@").first.map({ $0.lowercased() })
    {
      fail(field, "the password must not be the email address")
    }
  }

  /// Non-empty after trimming, at most `maxLength` characters; returns it trimmed.
  @discardableResult
  public mutating func requiredText(_ raw: String, field: String, what: PersonText, maxLength: Int = 100) -> String {
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty {
      fail(field, "\(what) is required")
    } else if text.count > maxLength {
      fail(field, "\(what) is longer than \(maxLength) characters")
    }
    return text
  }

  /// Empty after trimming, or at most `maxLength` characters; returns it trimmed.
  @discardableResult
  public mutating func optionalText(_ raw: String, field: String, what: PersonText, maxLength: Int = 100) -> String {
    let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.count > maxLength { fail(field, "\(what) is longer than \(maxLength) characters") }
    return text
  }

  /// Empty (not given), or a phone as ``phone(_:field:)`` checks it.
  @discardableResult
  public mutating func optionalPhone(_ raw: String, field: String) -> String {
    raw.allSatisfy(\.isWhitespace) ? "" : phone(raw, field: field)
  }

  /// Empty (not given), or a birth date as ``birthDate(_:field:today:)`` checks it.
  @discardableResult
  public mutating func optionalBirthDate(_ raw: String, field: String, today: Date) -> String {
    raw.allSatisfy(\.isWhitespace) ? "" : birthDate(raw, field: field, today: today)
  }

  /// E.164: `+`, then 8 to 15 digits, the first not 0. Spaces are tolerated and removed.
  @discardableResult
  public mutating func phone(_ raw: String, field: String) -> String {
    let phone = raw.filter { !$0.isWhitespace }
    if phone.isEmpty {
      fail(field, "a phone number is required")
    } else if !Self.isE164(phone) {
      fail(field, "\"\(raw)\" is not an international phone number (expected + and the digits, e.g. +393331234567)")
    }
    return phone
  }

  /// `YYYY-MM-DD`, a real day, before `today`'s day (UTC), not before 1900.
  @discardableResult
  public mutating func birthDate(_ raw: String, field: String, today: Date) -> String {
    let text = raw.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty else {
      fail(field, "a birth date is required")
      return text
    }
    guard let date = Self.day(text) else {
      fail(field, "\"\(raw)\" is not a date (expected YYYY-MM-DD)")
      return text
    }
    if date >= Self.startOfDay(today) {
      fail(field, "the birth date must be in the past")
    } else if text < "1900-01-01" {
      fail(field, "the birth date is before 1900")
    }
    return text
  }

  /// A language the suite speaks, by its code (`it`, `en`; a regional tag such as `it-IT` is
  /// read as its language).
  public mutating func language(_ raw: String, field: String) -> Language {
    guard let language = Language(tag: raw.trimmingCharacters(in: .whitespaces)) else {
      fail(field, "\"\(raw)\" is not a language the suite speaks (it or en)")
      return .fallback
    }
    return language
  }

  /// 6 digits, as sent by email or SMS; returns them trimmed.
  @discardableResult
  public mutating func code(_ raw: String, field: String, sentBy: PersonText) -> String {
    let code = raw.trimmingCharacters(in: .whitespaces)
    if code.count != 6 || !code.allSatisfy(\.isASCIIDigit) {
      fail(field, "the code is the 6 digits from the \(sentBy)")
    }
    return code
  }

  // MARK: - Shapes

  /// Trimmed and lower-cased: how the suite stores and compares addresses.
  public static func normalizedEmail(_ raw: String) -> String {
    raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
  }

  public static func isEmail(_ email: String) -> Bool {
    guard email.count <= 254, !email.contains(where: { $0.isWhitespace || $0.isNewline }) else { return false }
    let parts = email.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, let local = parts.first, let domain = parts.last else { return false }
    guard !local.isEmpty, local.count <= 64, !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..") else {
      return false
    }
    let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
    guard labels.count >= 2 else { return false }
    for label in labels {
      guard !label.isEmpty, label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else { return false }
      guard label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return false }
    }
    return labels.last!.count >= 2 && labels.last!.allSatisfy(\.isLetter)
  }

  public static func isE164(_ phone: String) -> Bool {
    guard phone.first == "+" else { return false }
    let digits = phone.dropFirst()
    return (8 ... 15).contains(digits.count) && digits.allSatisfy(\.isASCIIDigit) && digits.first != "0"
  }

  /// The start (UTC) of the day `date` falls on.
  public static func startOfDay(_ date: Date) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.startOfDay(for: date)
  }

  /// The start (UTC) of the day `YYYY-MM-DD`, or `nil` if it is no such day.
  public static func day(_ text: String) -> Date? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let components = DateComponents(year: year, month: month, day: day)
    guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
    return date
  }
}

extension Character {
  public var isASCIIDigit: Bool {
    ("0" ... "9").contains(self)
  }
}
