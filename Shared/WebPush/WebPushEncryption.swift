import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188), one
/// record: what an application server sends so that only the subscribed browser can read it.
///
/// The sender makes a fresh P-256 key pair and salt per message; ``encrypt(_:for:senderKey:salt:)``
/// takes them as arguments only so that RFC 8291's published example can be reproduced byte for
/// byte. ``decrypt(_:receiverKey:authSecret:)`` is the browser's half: the tests' push-service
/// stand-in reads what it receives with it, as a user agent would.
public enum WebPushEncryption {
  /// The record size written in the header. One record holds a whole message: push services
  /// accept at most 4,096 bytes of body, so a message never needs a second.
  public static let recordSize: UInt32 = 4096
  /// The most plaintext one message carries: the record size less the 86-byte header, the
  /// 16-byte tag and the padding delimiter (RFC 8291 §4).
  public static let maximumPlaintext = Int(recordSize) - 86 - 16 - 1

  public enum Failure: Error, Equatable, CustomStringConvertible {
    case tooLong(Int)
    case malformedKey(String)
    case malformedMessage(String)

    public var description: String {
      switch self {
      case .tooLong(let count): "a push message holds at most \(WebPushEncryption.maximumPlaintext) bytes, not \(count)"
      case .malformedKey(let what): "the subscription's \(what) is not a usable key"
      case .malformedMessage(let what): "the message is malformed: \(what)"
      }
    }
  }

  /// Encrypts `plaintext` for the browser whose subscription keys are `receiverPublicKey` (the
  /// `p256dh` key, 65 bytes uncompressed) and `authSecret` (16 bytes).
  public static func encrypt(
    _ plaintext: some DataProtocol,
    receiverPublicKey: Data,
    authSecret: Data,
    senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
    salt: Data = Data((0 ..< 16).map { _ in UInt8.random(in: 0 ... 255) })
  ) throws -> Data {
    guard plaintext.count <= maximumPlaintext else { throw Failure.tooLong(plaintext.count) }
    guard let receiver = try? P256.KeyAgreement.PublicKey(x963Representation: receiverPublicKey) else {
      throw Failure.malformedKey("p256dh")
    }
    guard authSecret.count == 16 else { throw Failure.malformedKey("auth secret") }
    guard salt.count == 16 else { throw Failure.malformedMessage("the salt is not 16 bytes") }
    let senderPublic = senderKey.publicKey.x963Representation
    let (key, nonce) = try contentKeys(
      sharedSecret: senderKey.sharedSecretFromKeyAgreement(with: receiver),
      receiverPublic: receiverPublicKey,
      senderPublic: senderPublic,
      authSecret: authSecret,
      salt: salt
    )
    // The last (and only) record ends with the delimiter 0x02 and no padding.
    let sealed = try AES.GCM.seal(Data(plaintext) + [0x02], using: key, nonce: nonce)
    var body = Data()
    body.append(salt)
    withUnsafeBytes(of: recordSize.bigEndian) { body.append(contentsOf: $0) }
    body.append(UInt8(senderPublic.count))
    body.append(senderPublic)
    body.append(sealed.ciphertext)
    body.append(sealed.tag)
    return body
  }

  /// Reads a message as the browser holding `receiverKey` and `authSecret` does.
  public static func decrypt(_ body: Data, receiverKey: P256.KeyAgreement.PrivateKey, authSecret: Data) throws -> Data {
    let bytes = [UInt8](body)
    guard bytes.count > 21 else { throw Failure.malformedMessage("shorter than its header") }
    let salt = Data(bytes[0 ..< 16])
    let recordSize = bytes[16 ..< 20].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    let idLength = Int(bytes[20])
    guard bytes.count >= 21 + idLength + 16 + 1 else { throw Failure.malformedMessage("shorter than its key id and tag") }
    guard bytes.count - 21 - idLength <= Int(recordSize) else { throw Failure.malformedMessage("more than one record") }
    let senderPublic = Data(bytes[21 ..< (21 + idLength)])
    guard let sender = try? P256.KeyAgreement.PublicKey(x963Representation: senderPublic) else {
      throw Failure.malformedMessage("the key id is not a P-256 public key")
    }
    let (key, nonce) = try contentKeys(
      sharedSecret: receiverKey.sharedSecretFromKeyAgreement(with: sender),
      receiverPublic: receiverKey.publicKey.x963Representation,
      senderPublic: senderPublic,
      authSecret: authSecret,
      salt: salt
    )
    let record = bytes[(21 + idLength)...]
    let box = try AES.GCM.SealedBox(
      nonce: nonce,
      ciphertext: Data(record.dropLast(16)),
      tag: Data(record.suffix(16))
    )
    var padded = [UInt8](try AES.GCM.open(box, using: key))
    while padded.last == 0 { padded.removeLast() }
    guard padded.last == 0x02 else { throw Failure.malformedMessage("the last record has no delimiter") }
    padded.removeLast()
    return Data(padded)
  }

  /// RFC 8291 §3.4 then RFC 8188 §2.2–2.3: the content-encryption key and nonce.
  static func contentKeys(
    sharedSecret: SharedSecret,
    receiverPublic: Data,
    senderPublic: Data,
    authSecret: Data,
    salt: Data
  ) throws -> (SymmetricKey, AES.GCM.Nonce) {
    let keyInfo = Data("WebPush: info".utf8) + [0] + receiverPublic + senderPublic
    let inputKeyMaterial = sharedSecret.hkdfDerivedSymmetricKey(
      using: SHA256.self,
      salt: authSecret,
      sharedInfo: keyInfo,
      outputByteCount: 32
    )
    let pseudoRandomKey = HKDF<SHA256>.extract(inputKeyMaterial: inputKeyMaterial, salt: salt)
    let contentKey = HKDF<SHA256>.expand(
      pseudoRandomKey: pseudoRandomKey,
      info: Data("Content-Encoding: aes128gcm".utf8) + [0],
      outputByteCount: 16
    )
    let nonce = HKDF<SHA256>.expand(
      pseudoRandomKey: pseudoRandomKey,
      info: Data("Content-Encoding: nonce".utf8) + [0],
      outputByteCount: 12
    )
    return (contentKey, try AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
  }
}
