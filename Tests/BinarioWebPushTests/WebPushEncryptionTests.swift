import BinarioDomain
import BinarioWebPush
import Crypto
import Foundation
import Testing

/// RFC 8291 §5's worked example ("Push Message Encryption Example"): with the same keys and salt,
/// the same bytes.
@Suite struct WebPushEncryptionTests {
  static let plaintext = "When I grow up, I want to be a watermelon"
  static let senderPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
  static let senderPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
  static let receiverPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
  static let receiverPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
  static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
  static let salt = "DGv6ra1nlYgDCS1FRnbzlw"
  static let message =
    "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

  static func bytes(_ text: String) -> Data { Base64URL.decode(text)! }

  @Test func theRFCExampleEncryptsToTheRFCMessage() throws {
    let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Self.senderPrivate))
    #expect(Base64URL.encode(sender.publicKey.x963Representation) == Self.senderPublic)
    let body = try WebPushEncryption.encrypt(
      Data(Self.plaintext.utf8),
      receiverPublicKey: Self.bytes(Self.receiverPublic),
      authSecret: Self.bytes(Self.authSecret),
      senderKey: sender,
      salt: Self.bytes(Self.salt)
    )
    #expect(Base64URL.encode(body) == Self.message)
  }

  @Test func theRFCMessageDecryptsWithTheReceiversKey() throws {
    let receiver = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.bytes(Self.receiverPrivate))
    #expect(Base64URL.encode(receiver.publicKey.x963Representation) == Self.receiverPublic)
    let plaintext = try WebPushEncryption.decrypt(Self.bytes(Self.message), receiverKey: receiver, authSecret: Self.bytes(Self.authSecret))
    #expect(String(decoding: plaintext, as: UTF8.self) == Self.plaintext)
  }

  @Test func aFreshMessageRoundTripsAndNobodyElseReadsIt() throws {
    let browser = P256.KeyAgreement.PrivateKey()
    let auth = Data((0 ..< 16).map { UInt8($0) })
    let payload = Data(#"{"title":"R 2615 è in ritardo di 12 minuti"}"#.utf8)
    let first = try WebPushEncryption.encrypt(payload, receiverPublicKey: browser.publicKey.x963Representation, authSecret: auth)
    let second = try WebPushEncryption.encrypt(payload, receiverPublicKey: browser.publicKey.x963Representation, authSecret: auth)
    #expect(first != second, "each message has its own key pair and salt")
    #expect(try WebPushEncryption.decrypt(first, receiverKey: browser, authSecret: auth) == payload)
    #expect(throws: (any Error).self) {
      try WebPushEncryption.decrypt(first, receiverKey: P256.KeyAgreement.PrivateKey(), authSecret: auth)
    }
    #expect(throws: (any Error).self) {
      try WebPushEncryption.decrypt(first, receiverKey: browser, authSecret: Data(repeating: 7, count: 16))
    }
  }

  @Test func aMessageOverOneRecordIsRefused() throws {
    let browser = P256.KeyAgreement.PrivateKey()
    let tooLong = Data(repeating: 0x41, count: WebPushEncryption.maximumPlaintext + 1)
    #expect(throws: WebPushEncryption.Failure.tooLong(tooLong.count)) {
      try WebPushEncryption.encrypt(tooLong, receiverPublicKey: browser.publicKey.x963Representation, authSecret: Data(count: 16))
    }
    let longest = try WebPushEncryption.encrypt(
      tooLong.dropLast(),
      receiverPublicKey: browser.publicKey.x963Representation,
      authSecret: Data(count: 16)
    )
    #expect(longest.count == Int(WebPushEncryption.recordSize))
  }
}
