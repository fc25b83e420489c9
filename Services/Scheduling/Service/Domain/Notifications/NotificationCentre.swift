import BinarioDomain
import BinarioWebPush
import Foundation

/// The suite's notification centre: every user's inbox, their live streams, delivery
/// preferences and push devices, and `Notify` for the other services.
///
/// A notification is committed to the recipient's inbox before anything else happens to it; the
/// store then hands it to ``broadcaster`` (its recipient's live streams) and wakes the
/// ``DeliveryDispatcher`` (push, email, SMS), so nothing acknowledged is lost to a crash.
public final class NotificationCentre: Sendable {
  let store: SchedulingStore
  let clock: any DomainClock
  /// Each committed notification to its recipient's open live streams, in commit order; a
  /// stream that falls behind is ended, and its reader reconnects with its last cursor.
  public let broadcaster: KeyedBroadcast<String, UserNotification>
  public let dispatcher: DeliveryDispatcher
  /// The VAPID public key browsers subscribe with (base64url); empty when this deployment sends
  /// no Web Push.
  public let webPushPublicKey: String

  /// The most recipients one `Notify` may name.
  public static let maximumRecipients = 10_000

  public init(
    store: SchedulingStore,
    clock: any DomainClock,
    broadcaster: KeyedBroadcast<String, UserNotification> = KeyedBroadcast(),
    dispatcher: DeliveryDispatcher,
    webPushPublicKey: String = ""
  ) {
    self.store = store
    self.clock = clock
    self.broadcaster = broadcaster
    self.dispatcher = dispatcher
    self.webPushPublicKey = webPushPublicKey
  }

  /// What the store calls after each commit that made notifications, in commit order.
  var onCommitted: @Sendable ([UserNotification]) -> Void {
    let broadcaster = self.broadcaster
    let dispatcher = self.dispatcher
    return { notifications in
      for notification in notifications { broadcaster.publish(notification, to: notification.userID) }
      dispatcher.wake()
    }
  }

  /// What a `Notify` did.
  public struct NotifyOutcome: Sendable, Hashable {
    public var notified: Int
    /// The dedupe key was seen before: nothing was sent this time.
    public var duplicate: Bool
  }

  /// Notifies `userIDs` (deduplicated) once per `dedupeKey`.
  public func notify(
    userIDs rawIDs: [String],
    content: NotificationContent,
    dedupeKey rawKey: String,
    pushOnly: Bool = false
  ) async throws -> NotifyOutcome {
    var check = InputValidation()
    let userIDs = Self.distinct(rawIDs.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    if userIDs.isEmpty { check.fail("user_ids", "name at least one user") }
    if userIDs.count > Self.maximumRecipients { check.fail("user_ids", "at most \(Self.maximumRecipients) users per call") }
    let content = Self.checked(content, &check)
    let key = check.requiredText(rawKey, field: "dedupe_key", what: "a dedupe key", maxLength: 200)
    try check.finish()
    // Those who turned the notification's topic off (deals, welcomes) are not told at all; the
    // other topics cannot be, so their recipients' preferences are not read here.
    var recipients = userIDs
    if NotificationTopic(content.kind)?.canBeTurnedOff == true {
      let preferences = try store.preferences(userIDs: userIDs)
      recipients = userIDs.filter { (preferences[$0] ?? .standard).receives(content.kind) }
    }
    let made = try await store.notify(
      userIDs: recipients,
      content: content,
      dedupeKey: key,
      pushOnly: pushOnly,
      at: clock.now(),
      onCommitted: onCommitted
    )
    return made.map { NotifyOutcome(notified: $0, duplicate: false) } ?? NotifyOutcome(notified: 0, duplicate: true)
  }

  /// The user's inbox, newest first, from before `pageToken`'s notification.
  public func inbox(userID: String, pageSize: Int, pageToken: String, unreadOnly: Bool) throws -> InboxPage {
    let limit = try Paging.size(pageSize)
    var before: Int64?
    if let cursor = try Paging.cursor(pageToken, parts: 1, listing: "ListNotifications") {
      guard let sequence = Int64(cursor[0]) else { throw Paging.invalidToken("ListNotifications") }
      before = sequence
    }
    return try store.inbox(userID: userID, before: before, limit: limit, unreadOnly: unreadOnly)
  }

  /// The user's notifications from `cursor` on (all of those made after it, oldest first), then
  /// each one as it is made, in order: nothing twice, nothing lost. No cursor: only new ones.
  public func watch(userID: String, after cursorText: String) throws -> NotificationFeed {
    let cursor: NotificationCursor?
    if cursorText.isEmpty {
      cursor = nil
    } else {
      guard let parsed = NotificationCursor(cursorText) else {
        throw ServiceError.invalid("cursor", "not a cursor from this service")
      }
      cursor = parsed
    }
    // Subscribe before reading the backlog: whatever commits in between is in one or both, and
    // the feed skips in the live part what the backlog already had (publishing follows commit
    // order).
    let (live, ending) = broadcaster.subscribe([userID])
    let backlog: [UserNotification]
    do {
      backlog = try cursor.map { try store.notifications(userID: userID, after: $0.sequence) } ?? []
    } catch {
      ending()
      throw error
    }
    return NotificationFeed(
      backlog: backlog,
      live: live,
      ending: ending,
      after: backlog.last?.sequence ?? cursor?.sequence ?? -1
    )
  }

  /// Marks the named notifications (or all) read; returns how many changed and the unread count.
  public func markRead(userID: String, ids: [String], all: Bool) async throws -> (marked: Int, unread: Int) {
    if !all && ids.isEmpty { throw ServiceError.invalid("notification_ids", "name notifications, or set all") }
    if ids.count > 500 { throw ServiceError.invalid("notification_ids", "at most 500 per call") }
    return try await store.markRead(userID: userID, ids: all ? nil : ids, at: clock.now())
  }

  public func preferences(userID: String) throws -> DeliveryPreferences {
    try store.preferences(userID: userID) ?? .standard
  }

  /// Sets the user's channels, and the topics named (the others keep what was chosen before);
  /// `INVALID_ARGUMENT` when all channels are off, or a topic that cannot be is turned off.
  public func setPreferences(userID: String, _ wanted: DeliveryPreferences) async throws -> DeliveryPreferences {
    guard wanted.hasAnyChannel else {
      throw ServiceError.invalid("preferences", "keep at least one channel (push, email or SMS) on")
    }
    for (topic, chosen) in wanted.topics where !chosen.receive && !topic.canBeTurnedOff {
      throw ServiceError.invalid(
        "preferences.topics",
        "train changes, tickets, trips and taxi rides always reach your inbox: choose how you are told of them instead"
      )
    }
    var preferences = wanted
    preferences.topics = (try store.preferences(userID: userID)?.topics ?? [:]).merging(wanted.topics) { _, new in new }
    try await store.setPreferences(userID: userID, preferences)
    return preferences
  }

  /// Registers a device (the same platform and token again: moves it to this user, renamed).
  public func registerDevice(
    userID: String,
    platform: PushPlatform?,
    token rawToken: String,
    name rawName: String
  )
    async throws -> PushDevice
  {
    var check = InputValidation()
    if platform == nil { check.fail("platform", "choose FCM, APNs or web push") }
    let token = check.requiredText(rawToken, field: "token", what: "the device token", maxLength: 4096)
    let name = check.optionalText(rawName, field: "name", what: "the name")
    try check.finish()
    // A browser's token is its subscription: refused now rather than at the first push.
    if platform == .webPush { _ = try WebPushSubscription(token: token) }
    let device = PushDevice(
      id: UUID().uuidString.lowercased(),
      userID: userID,
      platform: platform!,
      token: token,
      name: name,
      registeredAt: clock.now()
    )
    return try await store.registerDevice(device)
  }

  public func devices(userID: String) throws -> [PushDevice] {
    try store.devices(userID: userID)
  }

  public func removeDevice(userID: String, deviceID rawID: String) async throws {
    let id = rawID.trimmingCharacters(in: .whitespaces)
    guard !id.isEmpty else { throw ServiceError.invalid("device_id", "a device id is required") }
    guard try await store.removeDevice(id: id, userID: userID) else {
      throw ServiceError.notFound("you have no device \(id)")
    }
  }

  /// The outbox, newest first.
  public func deliveries(userID: String, limit: Int) throws -> [Delivery] {
    guard (0 ... 500).contains(limit) else { throw ServiceError.invalid("limit", "at most 500") }
    return try store.deliveries(userID: userID.isEmpty ? nil : userID, limit: limit == 0 ? 50 : limit)
  }

  static func checked(_ content: NotificationContent, _ check: inout InputValidation) -> NotificationContent {
    var content = content
    let title = check.requiredText(content.title.english, field: "title", what: "a title", maxLength: 200)
    let body = check.optionalText(content.body.english, field: "body", what: "the body", maxLength: 2000)
    // Each translation trimmed and bounded as the English is (a longer one is dropped).
    let bounded = { (text: TranslatedText, limit: Int) in
      text.translations.mapValues { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { $0.value.count <= limit }
    }
    content.title = TranslatedText(english: title, translations: bounded(content.title, 200))
    content.body = TranslatedText(english: body, translations: bounded(content.body, 2000))
    if content.data.count > 20 { check.fail("data", "at most 20 entries") }
    for (key, value) in content.data where key.isEmpty || key.count > 64 || value.count > 512 {
      check.fail("data", "keys are 1 to 64 characters, values at most 512 (\(key.prefix(64)))")
    }
    return content
  }

  static func distinct(_ ids: [String]) -> [String] {
    var seen = Set<String>()
    return ids.filter { seen.insert($0).inserted }
  }
}
