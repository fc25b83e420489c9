import BinarioDomain
import Crypto
import Foundation
import JWTKit

/// Signs access tokens with identity's Ed25519 key: a compact JWS with header
/// `{"alg":"EdDSA","kid":<keyID>,"typ":"JWT"}` and ``AccessTokenClaims``.
///
/// Synchronous and cheap (one Ed25519 signature, ~20 µs in release). The JSON comes from jwt-kit's
/// header and claim types, so any jwt-kit `JWTKeyCollection` holding the public key verifies the
/// result too.
public struct AccessTokenSigner: Sendable {
  /// The `kid` header value: which of identity's keys signed the token.
  public let keyID: String
  private let privateKey: Curve25519.Signing.PrivateKey

  public init(keyID: String, privateKey: Curve25519.Signing.PrivateKey) {
    self.keyID = keyID
    self.privateKey = privateKey
  }

  /// jwt-kit's key type, for callers that hold one.
  public init(keyID: String, privateKey: EdDSA.PrivateKey) throws {
    self.init(keyID: keyID, privateKey: try Curve25519.Signing.PrivateKey(rawRepresentation: privateKey.rawRepresentation))
  }

  /// The public half, to hand to an ``AccessTokenVerifier``.
  public var publicKey: Curve25519.Signing.PublicKey {
    self.privateKey.publicKey
  }

  /// The compact JWS for `claims`.
  public func sign(_ claims: AccessTokenClaims) throws(AccessTokenError) -> String {
    var header = JWTHeader()
    header.alg = "EdDSA"
    header.typ = "JWT"
    header.kid = self.keyID
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = .sortedKeys
    do {
      let signingInput =
        Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
      let signature = try self.privateKey.signature(for: Data(signingInput.utf8))
      return signingInput + "." + Base64URL.encode(signature)
    } catch {
      throw .signingFailed("\(error)")
    }
  }
}
