import Foundation
import JWTKit

/// The claims of a Binario access token (a compact JWS, alg `EdDSA`, header `kid` naming the
/// signing key).
///
/// Dates are whole seconds since 1970 (jwt-kit's JSON coding).
public struct AccessTokenClaims: JWTPayload, Sendable, Equatable {
  /// The issuer every access token carries.
  public static let issuerName = "binario-identity"

  /// The account id.
  public var sub: SubjectClaim
  /// Raw role names (see ``Role``).
  public var roles: [String]
  /// The session the token belongs to; revoking the session revokes the token.
  public var sid: String
  /// The token's own id.
  public var jti: IDClaim
  public var iat: IssuedAtClaim
  public var exp: ExpirationClaim
  public var iss: IssuerClaim

  public init(
    userID: String,
    roles: [String],
    sessionID: String,
    tokenID: String,
    issuedAt: Date,
    expiresAt: Date,
    issuer: String = AccessTokenClaims.issuerName
  ) {
    self.sub = SubjectClaim(value: userID)
    self.roles = roles
    self.sid = sessionID
    self.jti = IDClaim(value: tokenID)
    self.iat = IssuedAtClaim(value: issuedAt.wholeSeconds)
    self.exp = ExpirationClaim(value: expiresAt.wholeSeconds)
    self.iss = IssuerClaim(value: issuer)
  }

  /// jwt-kit's own check (used only when a `JWTKeyCollection` verifies the token): not expired by
  /// the system clock. ``AccessTokenVerifier`` checks expiry against its injected clock instead.
  public func verify(using algorithm: some JWTAlgorithm) async throws {
    try self.exp.verifyNotExpired()
  }
}

extension Date {
  /// This date with the fraction of a second dropped (JWT dates are whole seconds).
  public var wholeSeconds: Date {
    Date(timeIntervalSince1970: self.timeIntervalSince1970.rounded(.down))
  }
}
