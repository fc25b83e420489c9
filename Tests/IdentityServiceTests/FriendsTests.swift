import Foundation
import IdentityService
import Testing

@Suite("Friends")
struct FriendsTests {
  @Test("request → listed both ways → accepted by the addressee → friends both ways → removed")
  func lifecycle() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com", firstName: "Bob", lastName: "Builder")

    let request = try await identity.domain.sendFriendRequest(userID: ada.id, email: "BOB@example.com")
    #expect(request.from.userID == ada.id && request.to.userID == bob.id)
    #expect(try await identity.domain.friendRequests(userID: ada.id).outgoing.map(\.id) == [request.id])
    #expect(try await identity.domain.friendRequests(userID: bob.id).incoming.map(\.id) == [request.id])

    let notTheirs = await identityError {
      try await identity.domain.respondToFriendRequest(userID: ada.id, requestID: request.id, accept: true)
    }
    #expect(notTheirs?.code == "notFound")

    try await identity.domain.respondToFriendRequest(userID: bob.id, requestID: request.id, accept: true)
    #expect(try await identity.domain.friends(userID: ada.id).map(\.userID) == [bob.id])
    #expect(try await identity.domain.friends(userID: bob.id).map(\.userID) == [ada.id])
    #expect(try await identity.domain.friendRequests(userID: bob.id).incoming.isEmpty)

    let again = await identityError { _ = try await identity.domain.sendFriendRequest(userID: bob.id, email: "ada@example.com") }
    #expect(again?.code == "alreadyExists")

    try await identity.domain.removeFriend(userID: bob.id, friendID: ada.id)
    #expect(try await identity.domain.friends(userID: ada.id).isEmpty)
    let notFriend = await identityError { try await identity.domain.removeFriend(userID: bob.id, friendID: ada.id) }
    #expect(notFriend?.code == "notFound")
  }

  @Test("clear refusals: yourself, twice, unknown address, the other already asked")
  func refusals() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com", firstName: "Bob")
    let yourself = await identityError { _ = try await identity.domain.sendFriendRequest(userID: ada.id, email: "ada@example.com") }
    #expect(yourself?.fields == ["email"])
    let malformed = await identityError { _ = try await identity.domain.sendFriendRequest(userID: ada.id, email: "bob") }
    #expect(malformed?.fields == ["email"])
    let unknown = await identityError { _ = try await identity.domain.sendFriendRequest(userID: ada.id, email: "zed@example.com") }
    #expect(unknown?.code == "notFound")
    _ = try await identity.domain.sendFriendRequest(userID: ada.id, email: "bob@example.com")
    let twice = await identityError { _ = try await identity.domain.sendFriendRequest(userID: ada.id, email: "bob@example.com") }
    #expect(twice?.code == "alreadyExists")
    let reverse = await identityError { _ = try await identity.domain.sendFriendRequest(userID: bob.id, email: "ada@example.com") }
    #expect(reverse?.code == "failedPrecondition")
  }

  @Test("a rejected request goes away without a friendship; a third party cannot see or answer it")
  func rejectAndPrivacy() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com", firstName: "Bob")
    let eve = try await identity.confirmedAccount("eve@example.com", firstName: "Eve")
    let request = try await identity.domain.sendFriendRequest(userID: ada.id, email: "bob@example.com")
    #expect(try await identity.domain.friendRequests(userID: eve.id) == FriendRequests(incoming: [], outgoing: []))
    let eveAnswers = await identityError {
      try await identity.domain.respondToFriendRequest(userID: eve.id, requestID: request.id, accept: true)
    }
    #expect(eveAnswers?.code == "notFound")
    try await identity.domain.respondToFriendRequest(userID: bob.id, requestID: request.id, accept: false)
    #expect(try await identity.domain.friends(userID: ada.id).isEmpty)
    #expect(try await identity.domain.friendRequests(userID: ada.id).outgoing.isEmpty)
    let gone = await identityError { try await identity.domain.respondToFriendRequest(userID: bob.id, requestID: request.id, accept: true) }
    #expect(gone?.code == "notFound")
  }
}
