import BinarioDomain
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import BinarioWebPush
import Crypto
import Foundation
import JWTKit
import Testing

/// A browser's half of Web Push, as the web app's service worker lives it: a subscription's key
/// pair and auth secret, registered as a `WEB_PUSH` device with the server's public key from
/// `GetPushSettings`; and reading what the push service received as the browser would.
struct WebPushBrowser {
  typealias Notifications = Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>

  let key = P256.KeyAgreement.PrivateKey()
  let authSecret = Data((0 ..< 16).map { _ in UInt8.random(in: 0 ... 255) })
  let path: String
  var deviceID = ""

  static func subscribe(
    _ notifications: Notifications,
    _ user: Binario_Identity_V1_TokenPair,
    at pushService: StandInPushService,
    path: String
  ) async throws -> WebPushBrowser {
    var browser = WebPushBrowser(path: path)
    let settings = try await notifications.getPushSettings(.init())
    #expect(!settings.webPushPublicKey.isEmpty, "the suite sends Web Push")
    let token = """
      {"endpoint":"\(pushService.endpoint(path))","expirationTime":null,\
      "keys":{"p256dh":"\(Base64URL.encode(browser.key.publicKey.x963Representation))","auth":"\(Base64URL.encode(browser.authSecret))"}}
      """
    browser.deviceID = try await notifications.registerPushDevice(
      .with {
        $0.platform = .webPush
        $0.token = token
        $0.name = "Firefox on a phone"
      },
      metadata: bearer(user)
    ).device.deviceID
    return browser
  }

  /// Waits for the push service to receive a message for this subscription, checks the request
  /// as a push service would (RFC 8030's headers, the VAPID token signed by the suite's key for
  /// this push service's origin) and decrypts it.
  func expectPush(from pushService: StandInPushService, suite: RunningSuite, titled title: String) async throws {
    let request = try await eventually("a push reaches \(path)") { pushService.received.first { $0.path == path } }
    #expect(request.headers["content-encoding"] == "aes128gcm")
    #expect(request.headers["urgency"] == "high")
    #expect(Int(request.headers["ttl"] ?? "") ?? 0 > 0)

    let authorization = try #require(request.headers["authorization"])
    let parts = authorization.dropFirst("vapid ".count).split(separator: ", ")
    let token = try #require(parts.first { $0.hasPrefix("t=") }).dropFirst(2)
    let publicKey = try #require(parts.first { $0.hasPrefix("k=") }).dropFirst(2)
    let expected = try VAPIDIdentity(privateKey: suite.webPushPrivateKey, subject: "mailto:operations@binario.test").publicKey
    #expect(String(publicKey) == expected)
    let keys = JWTKeyCollection()
    await keys.add(ecdsa: try ES256PublicKey(backing: P256.Signing.PublicKey(x963Representation: try #require(Base64URL.decode(publicKey)))))
    let claims = try await keys.verify(String(token), as: VAPIDClaims.self)
    #expect(claims.audience.value == ["https://localhost:\(pushService.port)"])
    #expect(claims.subject.value == "mailto:operations@binario.test")

    let plaintext = try WebPushEncryption.decrypt(request.body, receiverKey: key, authSecret: authSecret)
    let payload = try #require(try JSONSerialization.jsonObject(with: plaintext) as? [String: Any])
    #expect(payload["title"] as? String == title)
    #expect(payload["kind"] as? String == "trip_delay")
  }
}
