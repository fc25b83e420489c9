import BinarioDomain
import Crypto
import Foundation
import JWTKit

/// The application server's identity towards push services (RFC 8292, "VAPID"): a P-256 key pair
/// whose public half the web app hands the browser when it subscribes (`applicationServerKey`),
/// and with which every push request is signed, so that a subscription made for this server
/// accepts messages from it alone.
public struct VAPIDIdentity: Sendable {
  private let privateKey: P256.Signing.PrivateKey
  /// Who runs the server, for a push service's operator: `mailto:` or `https:` (RFC 8292 §2.1).
  public let subject: String

  /// `privateKey` is the key's 32-byte scalar in base64url, as `web-push generate-vapid-keys`
  /// and the dev tool write it.
  public init(privateKey: String, subject: String) throws {
    guard let raw = Base64URL.decode(privateKey.trimmingCharacters(in: .whitespacesAndNewlines)), raw.count == 32,
      let key = try? P256.Signing.PrivateKey(rawRepresentation: raw)
    else { throw ServiceError.invalid("web_push_private_key", "is not a P-256 private key in base64url (32 bytes)") }
    guard subject.hasPrefix("mailto:") || subject.hasPrefix("https:") else {
      throw ServiceError.invalid("web_push_subject", "must be a mailto: or https: address")
    }
    self.privateKey = key
    self.subject = subject
  }

  public init(privateKey: P256.Signing.PrivateKey, subject: String) {
    self.privateKey = privateKey
    self.subject = subject
  }

  /// A new key pair's private half in base64url, for configuration.
  public static func generatePrivateKey() -> String {
    Base64URL.encode(P256.Signing.PrivateKey().rawRepresentation)
  }

  /// The public key in base64url (65 bytes, uncompressed): the browser's `applicationServerKey`
  /// and the `k` parameter of every request.
  public var publicKey: String {
    Base64URL.encode(privateKey.publicKey.x963Representation)
  }

  /// The `Authorization` header for a request to `endpoint`: `vapid t=<JWT>, k=<public key>`,
  /// the JWT's audience being the endpoint's origin and its expiry `expiresAt` (at most 24 hours
  /// ahead, RFC 8292 §2).
  public func authorization(endpoint: URL, expiresAt: Date) throws -> String {
    guard let scheme = endpoint.scheme, let host = endpoint.host else {
      throw ServiceError.invalid("endpoint", "is not an absolute URL")
    }
    let origin = scheme + "://" + host + (endpoint.port.map { ":\($0)" } ?? "")
    var header = JWTHeader()
    header.alg = "ES256"
    header.typ = "JWT"
    let claims = VAPIDClaims(
      audience: AudienceClaim(value: origin),
      expiration: ExpirationClaim(value: Date(timeIntervalSince1970: expiresAt.timeIntervalSince1970.rounded(.down))),
      subject: SubjectClaim(value: subject)
    )
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = .sortedKeys
    let signingInput = Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
    // JWS's ES256 signature is r ‖ s, 64 bytes: the raw representation.
    let signature = try privateKey.signature(for: Data(signingInput.utf8)).rawRepresentation
    return "vapid t=\(signingInput).\(Base64URL.encode(signature)), k=\(publicKey)"
  }
}

/// The claims of a VAPID token (RFC 8292 §2).
public struct VAPIDClaims: JWTPayload, Equatable {
  public var audience: AudienceClaim
  public var expiration: ExpirationClaim
  public var subject: SubjectClaim

  enum CodingKeys: String, CodingKey {
    case audience = "aud"
    case expiration = "exp"
    case subject = "sub"
  }

  public func verify(using algorithm: some JWTAlgorithm) async throws {
    try expiration.verifyNotExpired()
  }
}
