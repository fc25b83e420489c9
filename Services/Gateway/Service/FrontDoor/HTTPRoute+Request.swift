import BinarioDomain
import Foundation

extension HTTPRoute {
  /// The method's binary request from an HTTP request's parts: the path's variables, the query's
  /// fields (only on routes without a `*` body), a resumed stream's `Last-Event-ID` (its cursor)
  /// and the JSON body.
  ///
  /// - Throws: ``TranscodingError`` naming the offending field.
  public func requestMessage(
    pathValues: [String: String],
    query: String?,
    lastEventID: String?,
    body: [UInt8]
  ) throws(TranscodingError) -> [UInt8] {
    var parameters: [(field: String, value: String, kind: HTTPRoute.ParameterKind)] = []
    for (field, value) in pathValues {
      parameters.append((field, value, self.parameterKinds[field] ?? .string))
    }
    for (name, value) in Self.queryItems(query) {
      guard self.body != "*", let kind = self.parameterKinds[name], pathValues[name] == nil else {
        let reason: PersonText =
          self.body == "*" ? "the request is the JSON body; this route takes no query parameters" : "not a field of the request"
        throw TranscodingError(field: name, reason: reason)
      }
      parameters.append((name, value, kind))
    }
    if self.resumesAtCursor, let lastEventID {
      parameters.append(("cursor", lastEventID, .string))
    }
    return try self.transcoder.request(body: self.body.isEmpty ? [] : body, parameters: parameters)
  }

  /// The query's `name=value` pairs, `+` and percent-escapes decoded.
  static func queryItems(_ query: String?) -> [(String, String)] {
    guard let query, !query.isEmpty else { return [] }
    return query.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
      }
      return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
    }
  }
}
