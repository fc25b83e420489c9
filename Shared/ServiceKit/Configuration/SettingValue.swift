import Logging

/// One raw value for a setting: text from a flag or an environment variable, or a typed JSON value
/// from the config file. The accessors check the value and explain, for a person, what they expected.
enum SettingValue: Sendable {
  case text(String)
  case json(JSONValue)

  /// Why a value was refused; ``ConfigurationLoader`` adds the setting and the source.
  struct Invalid: Error {
    var reason: String
  }

  private var shown: String {
    switch self {
    case .text(let text): return "\"\(text)\""
    case .json(let value): return value.description
    }
  }

  private func refuse(_ expected: String) -> Invalid {
    Invalid(reason: "expected \(expected), got \(self.shown)")
  }

  func nonEmptyString() throws(Invalid) -> String {
    switch self {
    case .text(let text) where !text.isEmpty: return text
    case .json(.string(let text)) where !text.isEmpty: return text
    default: throw self.refuse("a non-empty string")
    }
  }

  /// A path; empty text or JSON `null` clears it.
  func optionalPath() throws(Invalid) -> String? {
    switch self {
    case .text(let text): return text.isEmpty ? nil : text
    case .json(.string(let text)): return text.isEmpty ? nil : text
    case .json(.null): return nil
    default: throw self.refuse("a path string or null")
    }
  }

  /// An absolute URL with one of `schemes` and a host; `off`, empty text or JSON `null` for none.
  func optionalURL(schemes: [String]) throws(Invalid) -> String? {
    let text: String
    switch self {
    case .text(let value), .json(.string(let value)): text = value
    case .json(.null): return nil
    default: throw self.refuse("a URL or off")
    }
    if text.isEmpty || text.lowercased() == "off" { return nil }
    let expected = "a URL starting \(schemes.map { "\($0)://" }.joined(separator: " or ")) with a host, or off"
    guard let separator = text.range(of: "://"), schemes.contains(text[..<separator.lowerBound].lowercased()) else {
      throw self.refuse(expected)
    }
    let host = text[separator.upperBound...].prefix { $0 != "/" && $0 != ":" }
    guard !host.isEmpty, !text.contains(where: \.isWhitespace) else { throw self.refuse(expected) }
    return text
  }

  func integer(in range: ClosedRange<Int>, _ what: String) throws(Invalid) -> Int {
    guard let parsed = self.parsedInteger, range.contains(parsed) else {
      throw self.refuse("\(what) (an integer from \(range.lowerBound) to \(range.upperBound))")
    }
    return parsed
  }

  /// An integer, or `off` (text, any case) / JSON `null` for none.
  func optionalInteger(in range: ClosedRange<Int>, _ what: String) throws(Invalid) -> Int? {
    switch self {
    case .text(let text) where text.lowercased() == "off": return nil
    case .json(.null): return nil
    default:
      guard let parsed = self.parsedInteger, range.contains(parsed) else {
        throw self.refuse("\(what) (an integer from \(range.lowerBound) to \(range.upperBound)) or off")
      }
      return parsed
    }
  }

  private var parsedInteger: Int? {
    switch self {
    case .text(let text): return Int(text)
    case .json(.number(let number)): return number.rounded() == number && abs(number) < 1e15 ? Int(number) : nil
    default: return nil
    }
  }

  func seconds(in range: ClosedRange<Double>) throws(Invalid) -> Double {
    let parsed: Double?
    switch self {
    case .text(let text): parsed = Double(text)
    case .json(.number(let number)): parsed = number
    default: parsed = nil
    }
    guard let parsed, parsed.isFinite, range.contains(parsed) else {
      throw self.refuse("a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
    }
    return parsed
  }

  /// A number of seconds, or `off` (text, any case) / JSON `null` for none.
  func optionalSeconds(in range: ClosedRange<Double>) throws(Invalid) -> Double? {
    switch self {
    case .text(let text) where text.lowercased() == "off": return nil
    case .json(.null): return nil
    default:
      do {
        return try self.seconds(in: range)
      } catch {
        throw self.refuse("a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)), or off")
      }
    }
  }

  func choice<Choice: RawRepresentable & CaseIterable>(
    of type: Choice.Type
  ) throws(Invalid) -> Choice where Choice.RawValue == String {
    let text: String?
    switch self {
    case .text(let value): text = value
    case .json(.string(let value)): text = value
    default: text = nil
    }
    if let text, let choice = Choice(rawValue: text.lowercased()) { return choice }
    let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
    throw self.refuse("one of \(names)")
  }
}
