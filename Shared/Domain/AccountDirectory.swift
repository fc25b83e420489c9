/// An account as identity tells the other services of it (its internal `LookupAccounts`).
public struct PeerAccount: Sendable, Hashable {
  public var userID: String
  public var displayName: String
  public var email: String
  /// Empty unless verified.
  public var verifiedPhone: String
  public var isDriver: Bool
  public var disabled: Bool
  /// What the suite writes to this person is in this language.
  public var language: Language

  public init(
    userID: String,
    displayName: String,
    email: String,
    verifiedPhone: String = "",
    isDriver: Bool = false,
    disabled: Bool = false,
    language: Language = .fallback
  ) {
    self.userID = userID
    self.displayName = displayName
    self.email = email
    self.verifiedPhone = verifiedPhone
    self.isDriver = isDriver
    self.disabled = disabled
    self.language = language
  }

  public var hasVerifiedPhone: Bool { !verifiedPhone.isEmpty }
}

/// A user's card as identity keeps it, with the token the payment provider charges.
public struct CardOnFile: Sendable, Hashable {
  public var paymentMethodID: String
  public var providerToken: String
  public var last4: String

  public init(paymentMethodID: String, providerToken: String, last4: String) {
    self.paymentMethodID = paymentMethodID
    self.providerToken = providerToken
    self.last4 = last4
  }
}

/// Who people are, whose friends, and which cards they keep: identity's internal lookups, the port
/// every service's domain asks them through (`IdentityAccountDirectory` in BinarioServiceKit, or
/// a fake in tests).
public protocol AccountDirectory: Sendable {
  /// The accounts of `ids` that exist (unknown ids are left out).
  func accounts(ids: [String]) async throws -> [PeerAccount]
  /// The accounts with these emails (unknown emails are left out).
  func accounts(emails: [String]) async throws -> [PeerAccount]
  func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool
  /// Whether `userID` saved `email` as a contact who has not registered yet.
  func isPendingContact(userID: String, email: String) async throws -> Bool
  /// Sends a friend request from `userID` to `otherUserID` for them; `true` when they are friends
  /// now (already, or `otherUserID` had asked and that request is accepted).
  func sendFriendRequest(from userID: String, to otherUserID: String) async throws -> Bool
  /// The user's default card (`paymentMethodID` empty), or the one named; `nil` when they have
  /// none. `NOT_FOUND` when the account is gone or the card is not theirs.
  func card(userID: String, paymentMethodID: String) async throws -> CardOnFile?
}
