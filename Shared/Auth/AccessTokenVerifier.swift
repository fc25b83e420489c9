import Crypto
import Foundation
import JWTKit

/// Checks access tokens: the `EdDSA` signature by one of identity's public keys (chosen by the
/// header's `kid`), the issuer, and expiry against an injected clock.
///
/// Synchronous on purpose: the gateway checks a token on every call, on its event loop, and an
/// `async` check (jwt-kit's `JWTKeyCollection` is an actor) would cost a hop per call. Parsing uses
/// jwt-kit's `DefaultJWTParser`; the signature is checked with swift-crypto's Ed25519 directly.
/// Revocation is not its business: the caller checks ``VerifiedAccessToken/sessionID`` against the
/// revoked sessions it follows (identity's `WatchRevocations`).
public struct AccessTokenVerifier: Sendable {
  /// The keys tokens may be signed with, by key id.
  public let keys: [String: Curve25519.Signing.PublicKey]
  private let now: @Sendable () -> Date

  /// - Parameter now: The clock expiry is checked against (tests inject their own).
  public init(keys: [String: Curve25519.Signing.PublicKey], now: @escaping @Sendable () -> Date = { Date() }) {
    self.keys = keys
    self.now = now
  }

  /// From raw 32-byte Ed25519 public keys by key id (as `GetSigningKeys` returns them).
  /// - Throws: ``AccessTokenError/unknownKey(_:)`` naming a key whose bytes are not an Ed25519 key.
  public init(rawKeys: [String: Data], now: @escaping @Sendable () -> Date = { Date() }) throws(AccessTokenError) {
    var keys: [String: Curve25519.Signing.PublicKey] = [:]
    for (keyID, raw) in rawKeys {
      guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
        throw .unknownKey(keyID)
      }
      keys[keyID] = key
    }
    self.init(keys: keys, now: now)
  }

  /// The token's bearer, if the token is valid now.
  public func verify(_ token: String) throws(AccessTokenError) -> VerifiedAccessToken {
    let bytes = Array(token.utf8)
    guard let lastDot = bytes.lastIndex(of: UInt8(ascii: ".")) else { throw .malformed }
    let parsed: (header: JWTHeader, payload: AccessTokenClaims, signature: Data)
    do {
      parsed = try DefaultJWTParser().parse(bytes, as: AccessTokenClaims.self)
    } catch {
      throw .malformed
    }
    guard parsed.header.alg == "EdDSA" else { throw .unsupportedAlgorithm(parsed.header.alg) }
    guard let keyID = parsed.header.kid, let key = self.keys[keyID] else {
      throw .unknownKey(parsed.header.kid)
    }
    guard key.isValidSignature(parsed.signature, for: bytes[..<lastDot]) else { throw .badSignature }
    let claims = parsed.payload
    guard claims.iss.value == AccessTokenClaims.issuerName else { throw .wrongIssuer(claims.iss.value) }
    guard self.now() < claims.exp.value else { throw .expired(claims.exp.value) }
    return VerifiedAccessToken(
      userID: claims.sub.value,
      roles: Role.parse(claims.roles),
      sessionID: claims.sid,
      tokenID: claims.jti.value,
      expiresAt: claims.exp.value
    )
  }
}
