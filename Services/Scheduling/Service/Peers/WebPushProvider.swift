import AsyncHTTPClient
import BinarioDomain
import BinarioWebPush
import Foundation
import Logging
import NIOCore

/// The push channel with Web Push (RFC 8030, 8291, 8292) for browsers: a `WEB_PUSH` device's
/// notification is encrypted for its subscription, signed with the server's VAPID identity and
/// posted to its push service; what the push service accepted is recorded in the outbox like every
/// other delivery. Devices of other platforms go to the outbox recorder alone.
///
/// A push is a wake-up beside the inbox, which keeps the notification whatever happens here: a
/// push service that refuses or is unreachable is logged and the pass moves on, so one broken
/// endpoint never holds up everybody else's notifications.
public struct WebPushProvider: PushProvider {
  let identity: VAPIDIdentity
  let client: HTTPClient
  let outbox: OutboxPushProvider
  let clock: any DomainClock
  let logger: Logger

  /// How long a push service keeps a message for a browser that is offline: a day.
  static let timeToLive = 24 * 3600

  public init(
    identity: VAPIDIdentity,
    client: HTTPClient,
    outbox: OutboxPushProvider,
    clock: any DomainClock,
    logger: Logger
  ) {
    self.identity = identity
    self.client = client
    self.outbox = outbox
    self.clock = clock
    self.logger = logger
  }

  public func push(_ notification: UserNotification, to device: PushDevice) async throws -> PushOutcome {
    guard device.platform == .webPush else { return try await outbox.push(notification, to: device) }
    guard let subscription = try? WebPushSubscription(token: device.token) else {
      // Registration checks the token; one stored before that check cannot be pushed to.
      return .tokenGone
    }
    let request = try WebPushRequest(
      payload: WebPushPayload(notification).encoded(),
      subscription: subscription,
      identity: identity,
      timeToLive: Self.timeToLive,
      urgency: WebPushPayload.urgency(of: notification.content.kind),
      now: clock.now()
    )
    var post = HTTPClientRequest(url: request.endpoint.absoluteString)
    post.method = .POST
    for header in request.headers { post.headers.add(name: header.name, value: header.value) }
    post.body = .bytes(ByteBuffer(bytes: request.body))
    let status: Int
    do {
      status = Int(try await client.execute(post, timeout: .seconds(15)).status.code)
    } catch {
      logger.warning("a push service could not be reached", metadata: ["device.id": "\(device.id)", "error": "\(error)"])
      return .sent
    }
    switch WebPushRequest.Outcome(status: status) {
    case .accepted:
      return try await outbox.push(notification, to: device)
    case .subscriptionGone:
      return .tokenGone
    case .refused(let code), .unavailable(let code):
      logger.warning("a push service refused a message", metadata: ["device.id": "\(device.id)", "http.status": "\(code)"])
      return .sent
    }
  }
}

/// What the web app's service worker receives: the notification's words and what to open.
struct WebPushPayload: Encodable {
  var id: String
  var kind: String
  var title: String
  var body: String
  var data: [String: String]

  init(_ notification: UserNotification) {
    self.id = notification.id
    self.kind = notification.content.kind.rawValue
    self.title = notification.title
    self.body = notification.body
    self.data = notification.content.data
  }

  /// The JSON, the body shortened (never the title or the ids) to fit one record.
  func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var payload = self
    var data = try encoder.encode(payload)
    var kept = body.count
    while data.count > WebPushEncryption.maximumPlaintext, kept > 0 {
      // Each character is at least one byte: dropping as many as there are bytes too many (and
      // always one) shrinks the JSON every time round.
      kept = max(0, kept - max(1, data.count - WebPushEncryption.maximumPlaintext))
      payload.body = kept == 0 ? "" : String(body.prefix(kept)) + "…"
      data = try encoder.encode(payload)
    }
    return data
  }

  /// A train's change and a taxi's arrival wake the phone at once; the rest can wait for it.
  static func urgency(of kind: NotificationKind) -> WebPushRequest.Urgency {
    switch kind {
    case .tripDelay, .platformChange, .cancellation, .taxiUpdate, .serviceNotice: .high
    case .itineraryInvite, .itineraryUpdate, .ticket, .renewalReminder, .general, .airAlert: .normal
    case .deal, .welcome: .low
    }
  }
}
