import Foundation

/// Someone a user saved by name and email who has no confirmed account yet. When an account
/// confirms that address, the contact becomes a friendship.
public struct PendingContact: Sendable, Hashable {
  public var id: String
  public var name: String
  /// Lower-case, trimmed.
  public var email: String
  public var createdAt: Date

  public init(id: String, name: String, email: String, createdAt: Date) {
    self.id = id
    self.name = name
    self.email = email
    self.createdAt = createdAt
  }
}

/// What saving a contact did: saved it pending registration, or, the person being registered,
/// sent them a friend request.
public enum AddedContact: Sendable, Hashable {
  case pending(PendingContact)
  case friendRequestSent(FriendRequest)
}
