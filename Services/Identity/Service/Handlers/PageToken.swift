import Foundation

/// ListAccounts' page token: the last email of the page, base64url-encoded so clients treat it
/// as opaque.
enum PageToken {
  static func encode(_ lastEmail: String) -> String {
    Data(("v1:" + lastEmail).utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// The email, or `nil` for a token ListAccounts did not make.
  static func decode(_ token: String) -> String? {
    var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
      text.hasPrefix("v1:")
    else { return nil }
    return String(text.dropFirst(3))
  }
}
