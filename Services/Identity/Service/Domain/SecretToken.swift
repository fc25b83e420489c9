import BinarioAuth
import BinarioDomain
import Crypto
import Foundation

/// Random secrets handed to a client and kept only as a hash: refresh tokens (32 random bytes,
/// base64url), password reset tokens (32 random bytes, hex) and confirmation codes (6 digits).
public enum SecretToken {
  /// A new refresh token: 32 random bytes, base64url without padding (43 characters).
  public static func newRefreshToken() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
    return Base64URL.encode(bytes)
  }

  /// A new password reset token: 32 random bytes in lower-case hex (64 characters). Hex, so
  /// it never starts with `-` (a command line would take it for an option) and survives any
  /// mail client's link detection.
  public static func newResetToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0 ..< 32).map { _ in
      let byte = UInt8.random(in: 0 ... 255, using: &generator)
      return (byte < 16 ? "0" : "") + String(byte, radix: 16)
    }.joined()
  }

  /// A new 6-digit confirmation code, uniformly drawn (`000000`-`999999`).
  public static func newConfirmationCode() -> String {
    var generator = SystemRandomNumberGenerator()
    let value = Int.random(in: 0 ..< 1_000_000, using: &generator)
    let digits = String(value)
    return String(repeating: "0", count: 6 - digits.count) + digits
  }

  /// SHA-256 of the text, in lower-case hex: what the database keeps instead of the secret.
  ///
  /// `context` binds a short secret to its owner (a code is hashed with the address it
  /// confirms), so one table row's hash says nothing about another's.
  public static func hash(_ secret: String, context: String = "") -> String {
    let digest = SHA256.hash(data: Data((context + "\u{0}" + secret).utf8))
    return digest.map { byte in
      let hex = String(byte, radix: 16)
      return byte < 16 ? "0" + hex : hex
    }.joined()
  }
}
