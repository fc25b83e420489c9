import BinarioAuth
import Foundation

/// ListAccounts' page token: the last email of the page, base64url-encoded so clients treat it
/// as opaque.
enum PageToken {
  static func encode(_ lastEmail: String) -> String {
    Base64URL.encode(Array(("v1:" + lastEmail).utf8))
  }

  /// The email, or `nil` for a token ListAccounts did not make.
  static func decode(_ token: String) -> String? {
    guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8), text.hasPrefix("v1:")
    else { return nil }
    return String(text.dropFirst(3))
  }
}
