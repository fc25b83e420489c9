import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Asks the account at `email` to become the caller's friend.
  ///
  /// `INVALID_ARGUMENT` for a malformed address or the caller's own; `NOT_FOUND` when no account
  /// has the address; `ALREADY_EXISTS` when already friends or already asked;
  /// `FAILED_PRECONDITION` when the other has already asked the caller (answer that request).
  public func sendFriendRequest(userID: String, email rawEmail: String) async throws -> FriendRequest {
    let caller = try await callerAccount(userID)
    var check = InputValidation()
    let email = check.email(rawEmail, field: "email")
    if email == caller.email { check.fail("email", "you cannot send a friend request to yourself") }
    try check.finish()
    guard let other = try await store.account(email: email) else {
      throw ServiceError.notFound("no account has the address \(email)")
    }
    if try await store.areFriends(caller.id, other.id) {
      throw ServiceError.alreadyExists("you and \(email) are already friends")
    }
    if try await store.hasPendingFriendRequest(from: other.id, to: caller.id) {
      throw ServiceError.failedPrecondition("\(email) has already asked you; accept their request instead")
    }
    do {
      return try await store.insertFriendRequest(id: Self.newID(), from: caller.id, to: other.id, at: clock.now())
    } catch StoreConflict.duplicate {
      throw ServiceError.alreadyExists("you have already asked \(email)")
    }
  }

  /// The caller's pending requests, incoming and outgoing.
  public func friendRequests(userID: String) async throws -> FriendRequests {
    _ = try await callerAccount(userID)
    return try await store.friendRequests(of: userID)
  }

  /// Accepts or rejects a request addressed to the caller. Anyone else gets `NOT_FOUND`: a request
  /// is not theirs to see.
  public func respondToFriendRequest(userID: String, requestID rawID: String, accept: Bool) async throws {
    let requestID = try Self.requiredID(rawID, field: "request_id", what: "a request id")
    guard let request = try await store.friendRequest(id: requestID), request.to.userID == userID else {
      throw ServiceError.notFound("no friend request \(requestID) is addressed to you")
    }
    try await store.resolveFriendRequest(request, accept: accept, at: clock.now())
  }

  /// The caller's friends.
  public func friends(userID: String) async throws -> [UserSummary] {
    _ = try await callerAccount(userID)
    return try await store.friends(of: userID)
  }

  /// Ends a friendship of the caller's (both ways).
  public func removeFriend(userID: String, friendID rawID: String) async throws {
    let friendID = try Self.requiredID(rawID, field: "user_id", what: "a user id")
    guard try await store.removeFriendship(userID, friendID, at: clock.now()) else {
      throw ServiceError.notFound("\(friendID) is not among your friends")
    }
  }
}
