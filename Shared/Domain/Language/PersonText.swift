import Foundation

/// Words for a person, in whichever language they read: written in English where they are made,
/// as any string is (`"station \(id) is not served"`), they keep their template ("station %@ is
/// not served") and what was interpolated, so they render in Italian from the catalogue
/// (``PersonText/italian``) with the same values.
///
/// Interpolating another `PersonText` nests it, and it renders in the same language; anything
/// else interpolated (an id, a number, a name) is shown as it is. Two texts are equal when their
/// English is, so a test may compare a refusal with the words it expects.
///
/// `scripts/check-person-texts.py` finds the templates written in the services' code and fails
/// when the Italian catalogue lacks one (or keeps one no code writes).
public struct PersonText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
  /// What was interpolated, in order.
  public enum Argument: Sendable, Hashable {
    /// Shown as it is, in every language.
    case verbatim(String)
    /// Rendered in the same language as the text around it.
    case text(PersonText)
    /// Words rendered earlier in every language (kept in a database), in the same language.
    case translated(TranslatedText)
    /// A number written as the language writes it (12.5, 12,5), to at most `digits` decimals.
    case number(Double, digits: Int)
  }

  /// The English words with `%@` for each argument (and `%%` for a percent sign): the key of
  /// the catalogues.
  public private(set) var template: String
  public private(set) var arguments: [Argument]

  public init(stringLiteral value: String) {
    self.template = value.replacingOccurrences(of: "%", with: "%%")
    self.arguments = []
  }

  public init(stringInterpolation: StringInterpolation) {
    self.template = stringInterpolation.template
    self.arguments = stringInterpolation.arguments
  }

  /// Words no catalogue translates: a name, or a reason that came as text from elsewhere.
  public init(verbatim text: String) {
    self.template = "%@"
    self.arguments = [.verbatim(text)]
  }

  /// A number as each language writes it (a decimal point in English, a comma in Italian, and
  /// their thousands separators), to at most `digits` decimals, trailing zeros dropped.
  public static func number(_ value: Double, digits: Int = 1) -> PersonText {
    var text = PersonText(stringLiteral: "")
    text.template = "%@"
    text.arguments = [.number(value, digits: digits)]
    return text
  }

  /// Words kept rendered in every language (``TranslatedText``), shown in the reader's.
  public init(_ translated: TranslatedText) {
    self.template = "%@"
    self.arguments = [.translated(translated)]
  }

  public struct StringInterpolation: StringInterpolationProtocol {
    var template = ""
    var arguments: [Argument] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
      self.template.reserveCapacity(literalCapacity + 2 * interpolationCount)
    }

    public mutating func appendLiteral(_ literal: String) {
      self.template += literal.replacingOccurrences(of: "%", with: "%%")
    }

    /// Another text, rendered in the same language.
    public mutating func appendInterpolation(_ text: PersonText) {
      self.template += "%@"
      self.arguments.append(.text(text))
    }

    /// Anything else, as `String(describing:)` shows it.
    public mutating func appendInterpolation(_ value: some Any) {
      self.template += "%@"
      self.arguments.append(.verbatim(String(describing: value)))
    }
  }

  /// The words in `language`: the catalogue's template for this one (English when the
  /// catalogue has none), its `%@` (or `%2$@`, to reorder) filled with the arguments.
  public func rendered(in language: Language) -> String {
    let template = language == .english ? self.template : (Self.catalogue(for: language)[self.template] ?? self.template)
    let values = self.arguments.map { argument -> String in
      switch argument {
      case .verbatim(let text): return text
      case .text(let text): return text.rendered(in: language)
      case .translated(let text): return text.text(in: language)
      case .number(let value, let digits):
        return value.formatted(.number.precision(.fractionLength(0 ... digits)).locale(Locale(identifier: language.locale)))
      }
    }
    return Self.fill(template, with: values)
  }

  /// The English words.
  public var description: String { self.rendered(in: .english) }

  public static func == (lhs: PersonText, rhs: PersonText) -> Bool { lhs.description == rhs.description }
  public func hash(into hasher: inout Hasher) { hasher.combine(self.description) }

  /// Texts joined with `separator` (itself the same in every language): "a letter, a digit".
  public static func list(_ texts: [PersonText], separator: String = ", ") -> PersonText {
    var joined = PersonText(stringLiteral: "")
    for (index, text) in texts.enumerated() {
      joined.template += (index == 0 ? "" : separator.replacingOccurrences(of: "%", with: "%%")) + "%@"
      joined.arguments.append(.text(text))
    }
    // No catalogue holds a list's template ("%@, %@"): it renders through its parts.
    return joined
  }

  static func catalogue(for language: Language) -> [String: String] {
    switch language {
    case .english: [:]
    case .italian: Self.italian
    }
  }

  /// `template` with each `%@` replaced by the next value and each `%N$@` by the N-th; `%%` is
  /// a percent sign.
  static func fill(_ template: String, with values: [String]) -> String {
    var result = ""
    var next = 0
    var index = template.startIndex
    while index < template.endIndex {
      let character = template[index]
      guard character == "%" else {
        result.append(character)
        index = template.index(after: index)
        continue
      }
      let rest = template[template.index(after: index)...]
      if rest.hasPrefix("%") {
        result.append("%")
        index = template.index(index, offsetBy: 2)
      } else if rest.hasPrefix("@") {
        result += next < values.count ? values[next] : ""
        next += 1
        index = template.index(index, offsetBy: 2)
      } else if let dollar = rest.firstIndex(of: "$"), let position = Int(rest[rest.startIndex ..< dollar]),
        template[template.index(after: dollar)...].hasPrefix("@")
      {
        result += position >= 1 && position <= values.count ? values[position - 1] : ""
        index = template.index(dollar, offsetBy: 2)
      } else {
        result.append("%")
        index = template.index(after: index)
      }
    }
    return result
  }
}
