import BinarioDomain
import Foundation

/// Where and for whom a browser accepts pushes: its push service's endpoint and the two keys of
/// its subscription, as `PushSubscription.toJSON()` gives them. The web app registers exactly that
/// JSON as a `WEB_PUSH` device's token.
public struct WebPushSubscription: Sendable, Hashable {
  /// The push service's URL for this subscription (RFC 8030 §5): an `https` address.
  public var endpoint: URL
  /// The browser's P-256 public key, 65 bytes uncompressed (`keys.p256dh`).
  public var receiverPublicKey: Data
  /// 16 random bytes only the browser and this server know (`keys.auth`).
  public var authSecret: Data

  public init(endpoint: URL, receiverPublicKey: Data, authSecret: Data) {
    self.endpoint = endpoint
    self.receiverPublicKey = receiverPublicKey
    self.authSecret = authSecret
  }

  /// Parses a device token. Each problem names its field as the browser's JSON does
  /// (`token.endpoint`, `token.keys.p256dh`, `token.keys.auth`).
  public init(token: String) throws {
    struct Wire: Decodable {
      struct Keys: Decodable {
        var p256dh: String?
        var auth: String?
      }
      var endpoint: String?
      var keys: Keys?
    }
    guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(token.utf8)) else {
      throw ServiceError.invalid("token", "a web push device's token is the browser's PushSubscription as JSON")
    }
    var problems: [FieldProblem] = []
    let endpoint = wire.endpoint.flatMap { URL(string: $0) }
    if endpoint?.scheme != "https" || endpoint?.host == nil {
      problems.append(FieldProblem(field: "token.endpoint", description: "must be the push service's https address"))
    }
    let publicKey = wire.keys?.p256dh.flatMap { Base64URL.decode($0) }
    if publicKey?.count != 65 || publicKey?.first != 0x04 {
      problems.append(FieldProblem(field: "token.keys.p256dh", description: "must be a P-256 public key (65 bytes, base64url)"))
    }
    let auth = wire.keys?.auth.flatMap { Base64URL.decode($0) }
    if auth?.count != 16 {
      problems.append(FieldProblem(field: "token.keys.auth", description: "must be 16 bytes in base64url"))
    }
    guard problems.isEmpty, let endpoint, let publicKey, let auth else { throw ServiceError.invalid(problems) }
    self.init(endpoint: endpoint, receiverPublicKey: publicKey, authSecret: auth)
  }
}
