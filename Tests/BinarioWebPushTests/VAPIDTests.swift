import BinarioDomain
import BinarioWebPush
import Crypto
import Foundation
import JWTKit
import Testing

@Suite struct VAPIDTests {
  @Test func theTokenVerifiesWithThePublicKeyItCarries() async throws {
    let identity = try VAPIDIdentity(privateKey: VAPIDIdentity.generatePrivateKey(), subject: "mailto:ops@binario.example")
    let expiry = Date(timeIntervalSince1970: 2_000_000_000)
    let header = try identity.authorization(endpoint: URL(string: "https://push.example.net:8443/wpush/v2/abc?x=1")!, expiresAt: expiry)
    let parts = header.split(separator: ", ")
    #expect(parts.count == 2)
    let token = try #require(parts.first.map { String($0.dropFirst("vapid t=".count)) })
    let key = try #require(parts.last.map { String($0.dropFirst("k=".count)) })
    #expect(header.hasPrefix("vapid t="))
    #expect(key == identity.publicKey)

    // jwt-kit, given only the public key from `k`, checks the ES256 signature.
    let publicKey = try P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(key)))
    let keys = JWTKeyCollection()
    await keys.add(ecdsa: try ES256PublicKey(backing: publicKey))
    let claims = try await keys.verify(token, as: UnverifiedClaims.self)
    #expect(claims.aud == "https://push.example.net:8443")
    #expect(claims.sub == "mailto:ops@binario.example")
    #expect(claims.exp == 2_000_000_000)

    // Another server's key does not verify it.
    let other = JWTKeyCollection()
    await other.add(ecdsa: try ES256PublicKey(backing: P256.Signing.PrivateKey().publicKey))
    await #expect(throws: (any Error).self) { try await other.verify(token, as: UnverifiedClaims.self) }
  }

  @Test func aKeyOrSubjectThatCannotBeUsedNamesItsSetting() {
    #expect(throws: ServiceError.invalid("web_push_private_key", "is not a P-256 private key in base64url (32 bytes)")) {
      try VAPIDIdentity(privateKey: "not-a-key", subject: "mailto:ops@binario.example")
    }
    #expect(throws: ServiceError.invalid("web_push_subject", "must be a mailto: or https: address")) {
      try VAPIDIdentity(privateKey: VAPIDIdentity.generatePrivateKey(), subject: "ops@binario.example")
    }
  }

  /// The claims as they are on the wire, checked by the test itself rather than by the type
  /// that made them.
  struct UnverifiedClaims: JWTPayload {
    var aud: String
    var sub: String
    var exp: Int
    func verify(using algorithm: some JWTAlgorithm) async throws {}
  }
}
