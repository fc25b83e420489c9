import BinarioAuth
import BinarioDomain
import Crypto
import Foundation
import JWTKit
import Testing

@Suite("Access tokens")
struct AccessTokenTests {
  let clock = TestClock()
  let key = Curve25519.Signing.PrivateKey()
  var signer: AccessTokenSigner { AccessTokenSigner(keyID: "k1", privateKey: self.key) }
  var verifier: AccessTokenVerifier {
    AccessTokenVerifier(keys: ["k1": self.key.publicKey], now: self.clock.reader)
  }

  @Test("a signed token verifies and says who its bearer is")
  func roundTrip() throws {
    let token = try signer.sign(makeClaims(at: clock.now, roles: ["passenger", "admin", "astronaut"]))
    let verified = try verifier.verify(token)
    #expect(verified.userID == "user-1")
    #expect(verified.roles == [.passenger, .admin])
    #expect(verified.sessionID == "session-1")
    #expect(verified.tokenID == "token-1")
    #expect(verified.expiresAt == clock.now.addingTimeInterval(300).wholeSeconds)
  }

  @Test("the header names the key and the algorithm")
  func header() throws {
    let token = try signer.sign(makeClaims(at: clock.now))
    let header = try #require(Base64URL.decode(token.split(separator: ".")[0]))
    let json = try #require(try JSONSerialization.jsonObject(with: header) as? [String: String])
    #expect(json["alg"] == "EdDSA")
    #expect(json["kid"] == "k1")
  }

  @Test("an expired token is refused, from the second it expires")
  func expired() throws {
    let token = try signer.sign(makeClaims(at: clock.now, lifetime: 300))
    clock.advance(by: 299)
    _ = try verifier.verify(token)
    clock.advance(by: 1)
    #expect(throws: AccessTokenError.expired(clock.now)) { try verifier.verify(token) }
  }

  @Test("a token signed by another key under the same kid is refused")
  func forgedKey() throws {
    let forger = AccessTokenSigner(keyID: "k1", privateKey: Curve25519.Signing.PrivateKey())
    let token = try forger.sign(makeClaims(at: clock.now))
    #expect(throws: AccessTokenError.badSignature) { try verifier.verify(token) }
  }

  @Test("changing the claims breaks the signature")
  func tamperedClaims() throws {
    let token = try signer.sign(makeClaims(at: clock.now))
    let parts = token.split(separator: ".").map(String.init)
    let admin = try JSONEncoder.jwt.encode(makeClaims(at: clock.now, roles: ["admin"]))
    let tampered = [parts[0], Base64URL.encode(admin), parts[2]].joined(separator: ".")
    #expect(throws: AccessTokenError.badSignature) { try verifier.verify(tampered) }
  }

  @Test("a token naming an unknown key is refused")
  func wrongKeyID() throws {
    let other = AccessTokenSigner(keyID: "k2", privateKey: self.key)
    let token = try other.sign(makeClaims(at: clock.now))
    #expect(throws: AccessTokenError.unknownKey("k2")) { try verifier.verify(token) }
  }

  @Test("a token from another issuer is refused")
  func wrongIssuer() throws {
    let token = try signer.sign(makeClaims(at: clock.now, issuer: "someone-else"))
    #expect(throws: AccessTokenError.wrongIssuer("someone-else")) { try verifier.verify(token) }
  }

  @Test("an unsigned (alg none) token is refused")
  func algNone() throws {
    let header = Base64URL.encode(Data(#"{"alg":"none","kid":"k1","typ":"JWT"}"#.utf8))
    let claims = Base64URL.encode(try JSONEncoder.jwt.encode(makeClaims(at: clock.now)))
    #expect(throws: AccessTokenError.unsupportedAlgorithm("none")) {
      try verifier.verify("\(header).\(claims).")
    }
  }

  @Test("garbage is malformed", arguments: ["", "abc", "a.b", "a.b.c", "....", "eyJhbGciOiJFZERTQSJ9.e30.AA"])
  func malformed(token: String) {
    #expect(throws: AccessTokenError.self) { try verifier.verify(token) }
  }

  @Test("jwt-kit's own key collection verifies our tokens, and we verify its")
  func interoperatesWithJWTKit() async throws {
    let realClock = TestClock(Date())
    let collection = JWTKeyCollection()
    await collection.add(eddsa: EdDSA.PublicKey(backing: key.publicKey), kid: "k1")
    let ours = try signer.sign(makeClaims(at: realClock.now))
    let claims = try await collection.verify(ours, as: AccessTokenClaims.self)
    #expect(claims.sub.value == "user-1")

    let signing = JWTKeyCollection()
    await signing.add(eddsa: EdDSA.PrivateKey(backing: key), kid: "k1")
    let theirs = try await signing.sign(makeClaims(at: realClock.now), kid: "k1")
    let verifier = AccessTokenVerifier(keys: ["k1": key.publicKey], now: realClock.reader)
    #expect(try verifier.verify(theirs).sessionID == "session-1")
  }

  @Test("raw public keys (as GetSigningKeys publishes them) make a verifier")
  func rawKeys() throws {
    let verifier = try AccessTokenVerifier(rawKeys: ["k1": key.publicKey.rawRepresentation], now: clock.reader)
    #expect(try verifier.verify(try signer.sign(makeClaims(at: clock.now))).userID == "user-1")
    #expect(throws: AccessTokenError.unknownKey("bad")) {
      try AccessTokenVerifier(rawKeys: ["bad": Data([1, 2, 3])])
    }
  }
}

extension JSONEncoder {
  static var jwt: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    return encoder
  }
}
