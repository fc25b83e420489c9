import BinarioAuth
import Crypto
import Foundation

/// A device's upload token, as openSenseMap gives each senseBox one: shown to its owner once,
/// kept only as its SHA-256, and good only for uploading that device's readings. A board never
/// holds its owner's password or session.
///
/// The token is `bdt_` and 32 random bytes in base64url (43 characters): guessing one is hopeless,
/// so a plain SHA-256 (not a slow password hash) is what is kept and looked up.
public enum DeviceToken {
  public static let prefix = DeviceCredential.tokenPrefix

  /// A new token.
  public static func generate() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0 ..< 32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    return prefix
      + Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }

  /// What is stored and looked up: the SHA-256 of the token's bytes.
  public static func hash(_ token: String) -> Data {
    Data(SHA256.hash(data: Data(token.utf8)))
  }

  /// Whether `text` is shaped like a token (before any lookup).
  public static func looksValid(_ text: String) -> Bool {
    DeviceCredential.looksValid(text)
  }
}
