import Foundation

/// A pending request from one account to befriend another.
public struct FriendRequest: Sendable, Hashable {
  public var id: String
  public var from: UserSummary
  public var to: UserSummary
  public var createdAt: Date

  public init(id: String, from: UserSummary, to: UserSummary, createdAt: Date) {
    self.id = id
    self.from = from
    self.to = to
    self.createdAt = createdAt
  }
}

/// A caller's pending friend requests.
public struct FriendRequests: Sendable, Hashable {
  /// Sent to the caller, waiting for their answer.
  public var incoming: [FriendRequest]
  /// Sent by the caller, waiting for the other's answer.
  public var outgoing: [FriendRequest]

  public init(incoming: [FriendRequest], outgoing: [FriendRequest]) {
    self.incoming = incoming
    self.outgoing = outgoing
  }
}
