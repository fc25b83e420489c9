import BinarioDomain
import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func sendFriendRequest(
    request: Binario_Identity_V1_SendFriendRequestRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_SendFriendRequestResponse {
    let sent = try await domain.sendFriendRequest(userID: try caller().userID, email: request.email)
    return .with { $0.request = Binario_Identity_V1_FriendRequest(sent) }
  }

  public func listFriendRequests(
    request: Binario_Identity_V1_ListFriendRequestsRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListFriendRequestsResponse {
    let requests = try await domain.friendRequests(userID: try caller().userID)
    return .with {
      $0.incoming = requests.incoming.map(Binario_Identity_V1_FriendRequest.init)
      $0.outgoing = requests.outgoing.map(Binario_Identity_V1_FriendRequest.init)
    }
  }

  public func respondToFriendRequest(
    request: Binario_Identity_V1_RespondToFriendRequestRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RespondToFriendRequestResponse {
    try await domain.respondToFriendRequest(
      userID: try caller().userID,
      requestID: request.requestID,
      accept: request.accept
    )
    return .init()
  }

  public func listFriends(
    request: Binario_Identity_V1_ListFriendsRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListFriendsResponse {
    let userID = try caller().userID
    let friends = try await domain.friends(userID: userID)
    let pending = try await domain.pendingContacts(userID: userID)
    return .with {
      $0.friends = friends.map(Binario_Identity_V1_UserSummary.init)
      $0.pendingContacts = pending.map(Binario_Identity_V1_PendingContact.init)
    }
  }

  public func removeFriend(
    request: Binario_Identity_V1_RemoveFriendRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RemoveFriendResponse {
    try await domain.removeFriend(userID: try caller().userID, friendID: request.userID)
    return .init()
  }

  public func addContact(
    request: Binario_Identity_V1_AddContactRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_AddContactResponse {
    let userID = try caller().userID
    let key = try IdempotencyKey(caller: userID, key: request.idempotencyKey)
    switch try await domain.addContact(userID: userID, name: request.name, email: request.email, key: key) {
    case .pending(let contact):
      return .with { $0.pendingContact = Binario_Identity_V1_PendingContact(contact) }
    case .friendRequestSent(let friendRequest):
      return .with { $0.friendRequest = Binario_Identity_V1_FriendRequest(friendRequest) }
    }
  }

  public func removeContact(
    request: Binario_Identity_V1_RemoveContactRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RemoveContactResponse {
    try await domain.removeContact(userID: try caller().userID, contactID: request.contactID)
    return .init()
  }
}
