import BinarioDomain
import Foundation
import JWTKit

/// Verifies OpenID Connect ID tokens (Google's): the signature against the provider's published
/// keys (``OpenIDKeySet``), then `iss`, `aud` (the configured client id), `exp` and `iat` on
/// identity's clock, and that the provider has verified the email.
public struct OpenIDConnectVerifier: ExternalIdentityVerifier {
  public let configuration: OpenIDProviderConfiguration
  private let keySet: OpenIDKeySet

  public init(configuration: OpenIDProviderConfiguration, keySet: OpenIDKeySet? = nil) {
    self.configuration = configuration
    self.keySet = keySet ?? OpenIDKeySet(source: configuration.keys)
  }

  public var provider: String { configuration.provider }

  public func verify(idToken: String, now: Date) async throws -> ExternalIdentity {
    let claims = try await verifiedClaims(idToken)
    let skew = configuration.clockSkew
    guard configuration.issuers.contains(claims.iss) else {
      throw ServiceError.unauthenticated("the ID token was not issued by the configured provider")
    }
    guard claims.aud.value.contains(configuration.clientID) else {
      throw ServiceError.unauthenticated("the ID token was issued for another application")
    }
    guard now < claims.exp.value.addingTimeInterval(skew) else {
      throw ServiceError.unauthenticated("the ID token has expired; sign in with Google again")
    }
    if let issuedAt = claims.iat?.value, issuedAt > now.addingTimeInterval(skew) {
      throw ServiceError.unauthenticated("the ID token was issued in the future")
    }
    guard !claims.sub.isEmpty, claims.sub.count <= 255 else {
      throw ServiceError.unauthenticated("the ID token names no subject")
    }
    guard let rawEmail = claims.email, !rawEmail.isEmpty else {
      throw ServiceError.unauthenticated("the ID token carries no email address; allow the email scope")
    }
    guard claims.emailVerified == true else {
      throw ServiceError.unauthenticated("the provider has not verified \(rawEmail); verify it with the provider first")
    }
    var check = InputValidation()
    let email = check.email(rawEmail, field: "id_token")
    guard check.problems.isEmpty else {
      throw ServiceError.unauthenticated("the ID token's email address is not one identity accepts")
    }
    return ExternalIdentity(
      provider: configuration.provider,
      subject: claims.sub,
      email: email,
      givenName: claims.givenName,
      familyName: claims.familyName,
      name: claims.name
    )
  }

  /// The claims, once the signature checks out; with a key the cached set lacks, fetches the
  /// keys again once and retries.
  private func verifiedClaims(_ idToken: String) async throws -> IDTokenClaims {
    let keys = try await keySet.keys()
    do {
      return try await keys.verify(idToken, as: IDTokenClaims.self)
    } catch let error as JWTError {
      if let refreshed = try await keySet.refreshedKeys(),
        let claims = try? await refreshed.verify(idToken, as: IDTokenClaims.self)
      {
        return claims
      }
      throw ServiceError.unauthenticated("the ID token does not verify: \(Self.reason(error))")
    }
  }

  private static func reason(_ error: JWTError) -> String {
    switch error.errorType {
    case .signatureVerificationFailed: return "its signature does not match the provider's keys"
    case .malformedToken: return "it is not a well-formed JWT"
    default: return error.reason ?? "\(error.errorType)"
    }
  }
}

/// The claims of an OpenID Connect ID token that identity reads. Their checks run in
/// ``OpenIDConnectVerifier`` on identity's clock, not here.
struct IDTokenClaims: JWTPayload {
  var iss: String
  var sub: String
  var aud: AudienceClaim
  var exp: ExpirationClaim
  var iat: IssuedAtClaim?
  var email: String?
  /// A boolean, or (some providers) the string `"true"`.
  var emailVerified: Bool?
  var name: String?
  var givenName: String?
  var familyName: String?

  enum CodingKeys: String, CodingKey {
    case iss, sub, aud, exp, iat, email, name
    case emailVerified = "email_verified"
    case givenName = "given_name"
    case familyName = "family_name"
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    iss = try container.decode(String.self, forKey: .iss)
    sub = try container.decode(String.self, forKey: .sub)
    aud = try container.decode(AudienceClaim.self, forKey: .aud)
    exp = try container.decode(ExpirationClaim.self, forKey: .exp)
    iat = try container.decodeIfPresent(IssuedAtClaim.self, forKey: .iat)
    email = try container.decodeIfPresent(String.self, forKey: .email)
    if let flag = try? container.decodeIfPresent(Bool.self, forKey: .emailVerified) {
      emailVerified = flag
    } else {
      emailVerified = (try? container.decodeIfPresent(String.self, forKey: .emailVerified)).map { $0 == "true" }
    }
    name = try container.decodeIfPresent(String.self, forKey: .name)
    givenName = try container.decodeIfPresent(String.self, forKey: .givenName)
    familyName = try container.decodeIfPresent(String.self, forKey: .familyName)
  }

  func verify(using algorithm: some JWTAlgorithm) throws {}
}
