/// What a push provider (FCM, APNs, web push) said about one push.
public enum PushOutcome: Sendable, Hashable {
  case sent
  /// The token no longer reaches a device (uninstalled, expired): the device is dropped.
  case tokenGone
}

/// The narrow interface to the push providers. A real deployment implements it with FCM, APNs
/// and web push; the default records each push in the outbox.
public protocol PushProvider: Sendable {
  func push(_ notification: UserNotification, to device: PushDevice) async throws -> PushOutcome
}

/// The narrow interface to an email provider.
public protocol NotificationEmailProvider: Sendable {
  func email(_ notification: UserNotification, to address: String) async throws
}

/// The narrow interface to an SMS provider.
public protocol NotificationTextProvider: Sendable {
  func text(_ notification: UserNotification, to phone: String) async throws
}
