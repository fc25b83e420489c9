/// What a notification is about; the client picks an icon and what to open by it.
public enum NotificationKind: String, Sendable, Hashable, CaseIterable {
  case tripDelay = "trip_delay"
  case platformChange = "platform_change"
  case cancellation
  case itineraryInvite = "itinerary_invite"
  case itineraryUpdate = "itinerary_update"
  case deal
  case welcome
  case taxiUpdate = "taxi_update"
  case renewalReminder = "renewal_reminder"
  case ticket
  case general
  /// An admin's service notice (a strike, works on a line).
  case serviceNotice = "service_notice"
  /// A person's air alert: a measure above their threshold, or a board gone silent.
  case airAlert = "air_alert"
}

/// A notification a service asks scheduling's notification centre to deliver (its internal
/// `Notify`): the recipients' channel preferences decide how it reaches them, unless `pushOnly`.
public struct PeerNotification: Sendable, Hashable {
  public var userIDs: [String]
  public var kind: NotificationKind
  /// The words in every language; the recipient's is chosen where it is delivered.
  public var title: TranslatedText
  public var body: TranslatedText
  public var data: [String: String]
  /// The sender's key ("ticketing:renewal:<subscription>:<date>:<user>"): the same key again
  /// notifies nobody twice, so a retry is safe.
  public var dedupeKey: String
  /// By push only, whatever the recipients' preferences (a driver's job updates).
  public var pushOnly: Bool

  public init(
    userIDs: [String],
    kind: NotificationKind,
    title: TranslatedText,
    body: TranslatedText,
    data: [String: String] = [:],
    dedupeKey: String,
    pushOnly: Bool = false
  ) {
    self.userIDs = userIDs
    self.kind = kind
    self.title = title
    self.body = body
    self.data = data
    self.dedupeKey = dedupeKey
    self.pushOnly = pushOnly
  }
}

/// Where a service's domain sends notifications: scheduling's notification centre
/// (`SchedulingNotificationSender` in BinarioServiceKit), or a recording one in tests.
public protocol NotificationSender: Sendable {
  func send(_ notification: PeerNotification) async throws
}
