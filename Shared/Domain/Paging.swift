import Foundation

/// The suite's one paging rule, for every List method's `page_size` and `page_token`.
///
/// A page size of 0 asks for the listing's default; one below 0 or above its maximum is refused,
/// naming `page_size`. A page token is opaque to clients: base64url of a version and the parts of
/// the cursor where the previous page ended; a token the listing did not give is refused, naming
/// `page_token`.
public enum Paging {
  /// The page size to use for a request's `page_size`.
  /// - Throws: ``ServiceError/invalid(_:_:)`` naming `page_size`.
  public static func size(_ requested: Int, default defaultSize: Int = 20, maximum: Int = 100) throws -> Int {
    guard (0 ... maximum).contains(requested) else {
      throw ServiceError.invalid("page_size", "a page holds 1 to \(maximum) items (0 for \(defaultSize)); \(requested) is not a page size")
    }
    return requested == 0 ? defaultSize : requested
  }

  /// The token of the page after one that ended at `cursor` (its sort key and id, say).
  public static func token(after cursor: [String]) -> String {
    Base64URL.encode(Array((["p1"] + cursor).joined(separator: "\u{0}").utf8))
  }

  /// Where a page starts: the cursor `token` holds, or `nil` for the first page (no token).
  /// - Parameters:
  ///   - parts: how many parts the listing's cursor has.
  ///   - listing: the List method, for the error ("ListAccounts").
  /// - Throws: ``ServiceError/invalid(_:_:)`` naming `page_token` for a token the listing did not give.
  public static func cursor(_ token: String, parts: Int, listing: String) throws -> [String]? {
    guard !token.isEmpty else { return nil }
    guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8) else {
      throw invalidToken(listing)
    }
    let fields = text.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == parts + 1, fields[0] == "p1" else { throw invalidToken(listing) }
    return Array(fields.dropFirst())
  }

  /// The refusal of a cursor part that does not parse (a token the listing did not give).
  public static func invalidToken(_ listing: String) -> ServiceError {
    .invalid("page_token", "this page token did not come from \(listing)")
  }
}
