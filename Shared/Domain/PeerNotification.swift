/// A notification a service asks scheduling's notification centre to deliver (its internal
/// `Notify`): the recipients' channel preferences decide how it reaches them, unless `pushOnly`.
public struct PeerNotification: Sendable, Hashable {
  /// What it is about; the app groups and mutes notifications by kind.
  public enum Kind: Sendable, Hashable {
    case tripDelay, platformChange, cancellation, itineraryInvite, itineraryUpdate, deal, welcome, taxiUpdate, renewalReminder, ticket,
      general
  }

  public var userIDs: [String]
  public var kind: Kind
  public var title: String
  public var body: String
  public var data: [String: String]
  /// The sender's key ("ticketing:renewal:<subscription>:<date>:<user>"): the same key again
  /// notifies nobody twice, so a retry is safe.
  public var dedupeKey: String
  /// By push only, whatever the recipients' preferences (a driver's job updates).
  public var pushOnly: Bool

  public init(
    userIDs: [String],
    kind: Kind,
    title: String,
    body: String,
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
