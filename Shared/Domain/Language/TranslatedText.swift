import Foundation

/// A ``PersonText`` rendered in every language the suite speaks, to keep (a notification in an
/// inbox, a message waiting in an outbox) or to send to another service (scheduling's `Notify`):
/// whoever reads it later picks the reader's language without the code that wrote it. Two are
/// equal when their English is, as two ``PersonText``s are.
public struct TranslatedText: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The words by language; English is always there.
  public private(set) var texts: [Language: String]

  public init(_ text: PersonText) {
    var texts: [Language: String] = [:]
    for language in Language.allCases { texts[language] = text.rendered(in: language) }
    self.texts = texts
  }

  public init(stringLiteral value: String) {
    self.init(PersonText(stringLiteral: value))
  }

  public init(stringInterpolation: PersonText.StringInterpolation) {
    self.init(PersonText(stringInterpolation: stringInterpolation))
  }

  /// Words as another service sent them: English, and the languages it sent besides (by code;
  /// a code the suite does not speak is dropped).
  public init(english: String, translations: [String: String] = [:]) {
    var texts: [Language: String] = [:]
    for (code, text) in translations {
      if let language = Language(tag: code) { texts[language] = text }
    }
    texts[.english] = english
    self.texts = texts
  }

  /// The words in `language` (English when it was never rendered in it).
  public func text(in language: Language) -> String {
    self.texts[language] ?? self.english
  }

  public var english: String { self.texts[.english] ?? "" }

  public static func == (lhs: TranslatedText, rhs: TranslatedText) -> Bool { lhs.english == rhs.english }
  public func hash(into hasher: inout Hasher) { hasher.combine(self.english) }
  public var description: String { self.english }

  /// The languages besides English, by code: what `Notify` carries beside the English words.
  public var translations: [String: String] {
    Dictionary(uniqueKeysWithValues: self.texts.filter { $0.key != .english }.map { ($0.key.rawValue, $0.value) })
  }

  /// As kept in a text column: a JSON object by language code (`{"en":…,"it":…}`).
  public var stored: String {
    let object = Dictionary(uniqueKeysWithValues: self.texts.map { ($0.key.rawValue, $0.value) })
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// A column's value as ``stored`` wrote it; anything else (a row from before languages) is
  /// English words.
  public init(stored: String) {
    guard stored.hasPrefix("{"), let object = try? JSONSerialization.jsonObject(with: Data(stored.utf8)) as? [String: String],
      let english = object[Language.english.rawValue]
    else {
      self.init(english: stored)
      return
    }
    self.init(english: english, translations: object)
  }
}
