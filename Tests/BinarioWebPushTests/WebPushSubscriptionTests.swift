import BinarioDomain
import BinarioWebPush
import Crypto
import Foundation
import Testing

@Suite struct WebPushSubscriptionTests {
  @Test func theBrowsersJSONIsASubscription() throws {
    let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
    let token =
      #"{"endpoint":"https://updates.push.services.mozilla.com/wpush/v2/gAAA","expirationTime":null,"keys":{"p256dh":"\#(Base64URL.encode(key))","auth":"BTBZMqHH6r4Tts7J_aSIgg"}}"#
    let subscription = try WebPushSubscription(token: token)
    #expect(subscription.endpoint.host == "updates.push.services.mozilla.com")
    #expect(subscription.receiverPublicKey == key)
    #expect(subscription.authSecret.count == 16)
  }

  @Test func eachBadPartIsNamed() {
    let token = #"{"endpoint":"http://push.example/abc","keys":{"p256dh":"AAAA","auth":"short"}}"#
    #expect(
      throws: ServiceError.invalid([
        FieldProblem(field: "token.endpoint", description: "must be the push service's https address"),
        FieldProblem(field: "token.keys.p256dh", description: "must be a P-256 public key (65 bytes, base64url)"),
        FieldProblem(field: "token.keys.auth", description: "must be 16 bytes in base64url"),
      ])
    ) { try WebPushSubscription(token: token) }
    #expect(throws: ServiceError.self) { try WebPushSubscription(token: "fcm-device-token") }
  }

  @Test func aPushServicesAnswerIsReadAsRFC8030Says() {
    #expect(WebPushRequest.Outcome(status: 201) == .accepted)
    #expect(WebPushRequest.Outcome(status: 410) == .subscriptionGone)
    #expect(WebPushRequest.Outcome(status: 404) == .subscriptionGone)
    #expect(WebPushRequest.Outcome(status: 413) == .refused(413))
    #expect(WebPushRequest.Outcome(status: 429) == .unavailable(429))
    #expect(WebPushRequest.Outcome(status: 503) == .unavailable(503))
  }
}
