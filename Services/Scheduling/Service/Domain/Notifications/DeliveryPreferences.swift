import BinarioDomain

/// The channels a user's notifications go out on beside the inbox (myTaxiService G5 R4), and per
/// topic which of them it takes. At least one channel stays on (G5 D2).
public struct DeliveryPreferences: Sendable, Hashable {
  public var push: Bool
  public var email: Bool
  public var sms: Bool
  /// The topics the user chose for; any other keeps ``TopicPreference/standard(for:)``.
  public var topics: [NotificationTopic: TopicPreference]

  public init(push: Bool, email: Bool, sms: Bool, topics: [NotificationTopic: TopicPreference] = [:]) {
    self.push = push
    self.email = email
    self.sms = sms
    self.topics = topics
  }

  /// What a user who never chose gets: push and email; deals and welcomes by push only.
  public static let standard = DeliveryPreferences(push: true, email: true, sms: false)

  public var hasAnyChannel: Bool { self.push || self.email || self.sms }

  /// The user's choice for `topic`, or its default.
  public func topic(_ topic: NotificationTopic) -> TopicPreference {
    self.topics[topic] ?? .standard(for: topic)
  }

  /// Whether a notification of `kind` reaches the user at all (their inbox included).
  public func receives(_ kind: NotificationKind) -> Bool {
    guard let topic = NotificationTopic(kind) else { return true }
    return self.topic(topic).receive
  }

  /// The channels a notification of `kind` goes out on: those on for the user and for its topic.
  public func channels(for kind: NotificationKind) -> (push: Bool, email: Bool, sms: Bool) {
    guard let topic = NotificationTopic(kind) else { return (self.push, self.email, self.sms) }
    let chosen = self.topic(topic)
    return (self.push && chosen.push, self.email && chosen.email, self.sms && chosen.sms)
  }
}

/// What notifications are about, as a person chooses how to hear of each. Account and safety
/// messages (a password reset, an emergency alert: ``NotificationKind/general``) have no topic
/// and always take the user's channels.
public enum NotificationTopic: String, Sendable, Hashable, CaseIterable {
  /// Delays, platform changes, cancellations and service notices on the runs followed.
  case trainChanges = "train_changes"
  /// Offers from shops and services near the traveller (marketing).
  case deals
  /// A station's welcome on arrival, with places to visit near it.
  case welcomes
  /// Tickets bought and subscriptions' renewals.
  case tickets
  /// Trip itineraries shared with friends: invitations and changes.
  case trips
  /// A taxi ride's progress.
  case taxi
  /// The person's air alerts (MOQA): a threshold crossed, a board gone silent.
  case airQuality = "air_quality"

  /// The topic of `kind`; `nil` for the general kind.
  public init?(_ kind: NotificationKind) {
    switch kind {
    case .tripDelay, .platformChange, .cancellation, .serviceNotice: self = .trainChanges
    case .deal: self = .deals
    case .welcome: self = .welcomes
    case .ticket, .renewalReminder: self = .tickets
    case .itineraryInvite, .itineraryUpdate: self = .trips
    case .taxiUpdate: self = .taxi
    case .airAlert: self = .airQuality
    case .general: return nil
    }
  }

  /// Whether a person may turn the topic off altogether: marketing and welcomes may be; what
  /// concerns a journey, ticket, trip or ride already under way always reaches the inbox.
  public var canBeTurnedOff: Bool { self == .deals || self == .welcomes }
}

/// How a person hears of one topic: whether at all, and on which of their channels.
public struct TopicPreference: Sendable, Hashable {
  public var receive: Bool
  public var push: Bool
  public var email: Bool
  public var sms: Bool

  public init(receive: Bool, push: Bool, email: Bool, sms: Bool) {
    self.receive = receive
    self.push = push
    self.email = email
    self.sms = sms
  }

  /// Deals and welcomes come by push only unless the person asks for more (no marketing by
  /// email or SMS without consent); every other topic takes all of the person's channels.
  public static func standard(for topic: NotificationTopic) -> TopicPreference {
    topic.canBeTurnedOff
      ? TopicPreference(receive: true, push: true, email: false, sms: false)
      : TopicPreference(receive: true, push: true, email: true, sms: true)
  }
}

/// A channel a notification goes out on.
public enum DeliveryChannel: String, Sendable, Hashable, CaseIterable {
  case push, email, sms
}
