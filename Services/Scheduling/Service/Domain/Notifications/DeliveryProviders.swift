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

/// How to reach a user beside push: from identity's account.
public struct AccountContact: Sendable, Hashable {
  public var userID: String
  public var displayName: String
  public var email: String
  /// Empty unless verified.
  public var verifiedPhone: String

  public init(userID: String, displayName: String, email: String, verifiedPhone: String) {
    self.userID = userID
    self.displayName = displayName
    self.email = email
    self.verifiedPhone = verifiedPhone
  }
}

/// Who people are and who is whose friend: identity's internal lookups, behind a narrow
/// interface so the domain knows no gRPC (and tests need no identity).
public protocol AccountDirectory: Sendable {
  /// The accounts of `userIDs` that exist (unknown ids are left out).
  func accounts(ids userIDs: [String]) async throws -> [AccountContact]
  /// The account with `email`, if one exists.
  func account(email: String) async throws -> AccountContact?
  func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool
  /// Whether `userID` saved `email` as a contact who has not registered yet.
  func isPendingContact(userID: String, email: String) async throws -> Bool
}
