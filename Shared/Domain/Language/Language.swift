import Foundation

/// A language the suite speaks to people in: the web app's, an account's preferred one, the one
/// a request asks for (`Accept-Language`, or the `accept-language` metadata key).
public enum Language: String, Sendable, Hashable, CaseIterable, Codable {
  case italian = "it"
  case english = "en"

  /// The metadata key a call names the language it reads in, on every door: `accept-language`,
  /// the HTTP header's name, with its syntax (`it-IT,it;q=0.9,en;q=0.8`).
  public static let metadataKey = "accept-language"

  /// The BCP 47 locale a text in this language is labelled with (`google.rpc.LocalizedMessage`).
  public var locale: String {
    switch self {
    case .italian: "it-IT"
    case .english: "en-GB"
    }
  }

  /// The language of a tag ("it", "it-IT", "EN-us"), or nil for one the suite does not speak.
  public init?(tag: String) {
    // A stored tag is exactly a raw value: no splitting, trimming or case folding (Foundation's
    // trimming cost about 4 µs of every GetMe).
    if let exact = Language(rawValue: tag) {
      self = exact
      return
    }
    let primary = tag.split(separator: "-").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    guard let language = Language(rawValue: primary) else { return nil }
    self = language
  }

  /// The best of an `Accept-Language` value the suite speaks (RFC 9110 §12.5.4: by quality,
  /// then order; `q=0` refuses), or nil when it names none of them. `*` takes the first spoken.
  public init?(acceptLanguage header: String) {
    var best: (language: Language, quality: Double)?
    for item in header.split(separator: ",") {
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard let tag = parts.first, !tag.isEmpty else { continue }
      let quality = parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
      guard quality > 0, let language = tag == "*" ? Language.italian : Language(tag: tag) else { continue }
      if best == nil || quality > best!.quality { best = (language, quality) }
    }
    guard let best else { return nil }
    self = best.language
  }
}

/// The language the call being served asked for (its `accept-language`), for the length of
/// the call: ServiceKit's error interceptor sets it around every handler, so a handler may word
/// what it answers in it (an inbox, a new account's language when the app did not say).
public enum RequestLanguage {
  @TaskLocal public static var current: Language = .fallback
}

extension Language {
  /// The language of a request that asks for none the suite speaks, and of an account made by a
  /// client that did not say (the web app always says): English, the suite's working language.
  public static let fallback = Language.english
}
