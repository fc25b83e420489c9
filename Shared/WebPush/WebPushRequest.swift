import Foundation

/// One push message as an application server asks a push service to deliver it (RFC 8030 §5):
/// a `POST` to the subscription's endpoint with the encrypted body, signed with VAPID.
public struct WebPushRequest: Sendable {
  /// How soon the browser should be woken for it (RFC 8030 §5.3).
  public enum Urgency: String, Sendable {
    case veryLow = "very-low"
    case low, normal, high
  }

  public var endpoint: URL
  public var headers: [(name: String, value: String)]
  public var body: Data

  /// `payload` encrypted for `subscription`. `timeToLive` is how long the push service keeps it
  /// for a browser that is offline; the VAPID token expires 12 hours after `now`.
  public init(
    payload: Data,
    subscription: WebPushSubscription,
    identity: VAPIDIdentity,
    timeToLive: Int,
    urgency: Urgency,
    now: Date
  ) throws {
    self.endpoint = subscription.endpoint
    self.body = try WebPushEncryption.encrypt(
      payload,
      receiverPublicKey: subscription.receiverPublicKey,
      authSecret: subscription.authSecret
    )
    self.headers = [
      ("Authorization", try identity.authorization(endpoint: subscription.endpoint, expiresAt: now.addingTimeInterval(12 * 3600))),
      ("Content-Encoding", "aes128gcm"),
      ("Content-Type", "application/octet-stream"),
      ("TTL", String(max(0, timeToLive))),
      ("Urgency", urgency.rawValue),
    ]
  }

  /// What a push service's answer means for the subscription.
  public enum Outcome: Sendable, Equatable {
    /// Accepted for delivery (201).
    case accepted
    /// The subscription is gone for good (404, 410): forget it.
    case subscriptionGone
    /// Refused for this message only (400, 403, 413, …): nothing a retry would change.
    case refused(Int)
    /// The push service is overloaded or failing (429, 5xx): the same message may go later.
    case unavailable(Int)

    public init(status: Int) {
      switch status {
      case 200 ..< 300: self = .accepted
      case 404, 410: self = .subscriptionGone
      case 429, 500 ..< 600: self = .unavailable(status)
      default: self = .refused(status)
      }
    }
  }
}
