import Foundation
import JWTKit
import _CryptoExtras

/// A sign-in provider made in the test: its own RSA key pair, the JWKS document that publishes
/// the public key, and ID tokens signed as Google signs them (RS256) with claims the test picks.
public struct TestOpenIDProvider: Sendable {
  public static let issuer = "https://accounts.binario.test"
  public static let clientID = "binario-test-client.apps.example"

  public let keyID: String
  private let keys: JWTKeyCollection
  private let publicKey: JWTKit.Insecure.RSA.PublicKey

  public static func make(keyID: String = "test-key-1") async throws -> TestOpenIDProvider {
    let privateKey = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    let keys = JWTKeyCollection()
    await keys.add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyID))
    return TestOpenIDProvider(keyID: keyID, keys: keys, publicKey: privateKey.publicKey)
  }

  private init(keyID: String, keys: JWTKeyCollection, publicKey: JWTKit.Insecure.RSA.PublicKey) {
    self.keyID = keyID
    self.keys = keys
    self.publicKey = publicKey
  }

  /// The JWKS document publishing this provider's public key.
  public func jwks() throws -> String {
    let (modulus, exponent) = try publicKey.getKeyPrimitives()
    return """
      {"keys":[{"kty":"RSA","alg":"RS256","use":"sig","kid":"\(keyID)","n":"\(Self.base64URL(modulus))","e":"\(Self.base64URL(exponent))"}]}
      """
  }

  /// What an ID token says; the defaults make a valid token for ``clientID`` issued at `now`.
  public struct Claims: Sendable {
    public var issuer = TestOpenIDProvider.issuer
    public var audience = TestOpenIDProvider.clientID
    public var subject: String
    public var email: String
    public var emailVerified = true
    public var givenName: String? = "Grace"
    public var familyName: String? = "Hopper"
    public var issuedAt: Date
    public var lifetime: TimeInterval = 3600

    public init(subject: String, email: String, issuedAt: Date = Date()) {
      self.subject = subject
      self.email = email
      self.issuedAt = issuedAt
    }
  }

  /// An ID token with `claims`, signed by this provider's key.
  public func idToken(_ claims: Claims) async throws -> String {
    try await keys.sign(
      Payload(
        iss: claims.issuer,
        sub: claims.subject,
        aud: claims.audience,
        exp: Int(claims.issuedAt.timeIntervalSince1970 + claims.lifetime),
        iat: Int(claims.issuedAt.timeIntervalSince1970),
        email: claims.email,
        email_verified: claims.emailVerified,
        given_name: claims.givenName,
        family_name: claims.familyName
      ),
      kid: JWKIdentifier(string: keyID)
    )
  }

  private struct Payload: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var email: String
    var email_verified: Bool
    var given_name: String?
    var family_name: String?

    func verify(using algorithm: some JWTAlgorithm) throws {}
  }

  static func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }
}
