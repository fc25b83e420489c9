/// A `google.api.http` path template such as `/v1/admin/accounts/{account.user_id}:disable`:
/// literal segments, variables that each take one segment and name a request field, and an
/// optional custom verb after the last `:`.
public struct HTTPPathTemplate: Sendable, Hashable, CustomStringConvertible {
  public enum Segment: Sendable, Hashable {
    case literal(String)
    /// The request field (a dotted path) the segment's value fills.
    case variable(String)
  }

  public let segments: [Segment]
  /// `disable` in `...:disable`; `nil` when there is none.
  public let customVerb: String?
  public let description: String

  /// - Throws: ``HTTPPathTemplateError`` for what `google.api.http` allows and this gateway
  ///   does not (`**`, `{field=pattern}`), or a malformed template.
  public init(parsing text: String) throws(HTTPPathTemplateError) {
    guard text.hasPrefix("/") else { throw HTTPPathTemplateError(template: text, reason: "it must start with /") }
    var path = Substring(text.dropFirst())
    var verb: String?
    if let colon = path.lastIndex(of: ":"), !path[colon...].contains("/"), !path[colon...].contains("}") {
      verb = String(path[path.index(after: colon)...])
      path = path[..<colon]
    }
    var segments: [Segment] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: false) {
      if part.hasPrefix("{") && part.hasSuffix("}") {
        let field = part.dropFirst().dropLast()
        guard !field.isEmpty, !field.contains("="), !field.contains("*") else {
          throw HTTPPathTemplateError(template: text, reason: "\(part) must name a field, with no pattern")
        }
        segments.append(.variable(String(field)))
      } else if part.isEmpty || part.contains("{") || part.contains("}") || part.contains("*") {
        throw HTTPPathTemplateError(template: text, reason: "segment \"\(part)\" is not a literal or a {field}")
      } else {
        segments.append(.literal(String(part)))
      }
    }
    self.segments = segments
    self.customVerb = verb
    self.description = text
  }

  /// The values of the variables, by field, if `path` (without its query) matches; segments are
  /// percent-decoded.
  public func match(_ path: Substring) -> [String: String]? {
    guard path.hasPrefix("/") else { return nil }
    var rest = path.dropFirst()
    if let customVerb {
      guard rest.hasSuffix(":" + customVerb) else { return nil }
      rest = rest.dropLast(customVerb.count + 1)
    }
    let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == segments.count else { return nil }
    var values: [String: String] = [:]
    for (part, segment) in zip(parts, segments) {
      switch segment {
      case .literal(let literal):
        guard part == literal else { return nil }
      case .variable(let field):
        guard !part.isEmpty, let decoded = PercentDecoding.decode(part) else { return nil }
        if customVerb == nil && decoded.contains(":") { return nil }
        values[field] = decoded
      }
    }
    return values
  }
}

/// A path template the gateway cannot serve.
public struct HTTPPathTemplateError: Error, Sendable, Hashable, CustomStringConvertible {
  public var template: String
  public var reason: String

  public var description: String { "path template \(template): \(reason)" }
}

/// `%XX` escapes in a URL's path or query.
enum PercentDecoding {
  /// The text with escapes decoded (and, in a query, `+` as a space); `nil` when an escape is
  /// malformed or the bytes are not UTF-8.
  static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
        bytes.append(high << 4 | low)
      case UInt8(ascii: "+") where plusIsSpace:
        bytes.append(UInt8(ascii: " "))
      default:
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0") ... UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a") ... UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A") ... UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
