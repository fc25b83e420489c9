import BinarioEvents
import BinarioProto
import Foundation
import IdentityService
import Testing

/// What identity tells the other services about friendships and confirmed addresses, and the
/// friend request a service sends for a person (scheduling's invite to a non-friend).
@Suite("Friendship events")
struct FriendshipEventsTests {
  @Test("accepting tells FriendshipStarted, declining FriendRequestDeclined, a confirmed address AddressConfirmed")
  func told() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com", firstName: "Bob")
    let eve = try await identity.confirmedAccount("eve@example.com", firstName: "Eve")
    let toBob = try await identity.domain.sendFriendRequest(userID: ada.id, email: "bob@example.com")
    try await identity.domain.respondToFriendRequest(userID: bob.id, requestID: toBob.id, accept: true)
    let toEve = try await identity.domain.sendFriendRequest(userID: ada.id, email: "eve@example.com")
    try await identity.domain.respondToFriendRequest(userID: eve.id, requestID: toEve.id, accept: false)
    // A contact Ada saved registers: they are friends from their confirmation on.
    _ = try await identity.domain.addContact(userID: ada.id, name: "Zoe", email: "zoe@example.com")
    let zoe = try await identity.confirmedAccount("zoe@example.com", firstName: "Zoe")

    let log = EventLogStore(pool: identity.database.pool)
    let started = try await log.events(after: 0, types: [Binario_Identity_V1_FriendshipStarted.protoMessageName], limit: 10).events
      .map { try Binario_Identity_V1_FriendshipStarted(serializedBytes: $0.payload) }
    #expect(started.map { Set([$0.userID, $0.friendID]) } == [[ada.id, bob.id], [ada.id, zoe.id]])
    let declined = try await log.events(after: 0, types: [Binario_Identity_V1_FriendRequestDeclined.protoMessageName], limit: 10).events
      .map { try Binario_Identity_V1_FriendRequestDeclined(serializedBytes: $0.payload) }
    #expect(declined.map { [$0.fromUserID, $0.toUserID] } == [[ada.id, eve.id]])
    let confirmed = try await log.events(after: 0, types: [Binario_Identity_V1_AddressConfirmed.protoMessageName], limit: 10).events
      .map { try Binario_Identity_V1_AddressConfirmed(serializedBytes: $0.payload) }
    #expect(confirmed.map(\.email) == ["ada@example.com", "bob@example.com", "eve@example.com", "zoe@example.com"])
    #expect(confirmed.last?.userID == zoe.id)
  }

  @Test("a request sent for a person: waits; accepted at once when the other had asked; none when already friends")
  func sentForAPerson() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com", firstName: "Bob")
    let eve = try await identity.confirmedAccount("eve@example.com", firstName: "Eve")

    #expect(try await identity.domain.sendFriendRequest(for: ada.id, to: bob.id) == false)
    #expect(try await identity.domain.friendRequests(userID: bob.id).incoming.map(\.from.userID) == [ada.id])
    // Sent again (a second invite): still the one request.
    #expect(try await identity.domain.sendFriendRequest(for: ada.id, to: bob.id) == false)
    #expect(try await identity.domain.friendRequests(userID: bob.id).incoming.count == 1)

    _ = try await identity.domain.sendFriendRequest(userID: eve.id, email: "ada@example.com")
    #expect(try await identity.domain.sendFriendRequest(for: ada.id, to: eve.id) == true)
    #expect(try await identity.domain.friends(userID: eve.id).map(\.userID) == [ada.id])
    #expect(try await identity.domain.sendFriendRequest(for: eve.id, to: ada.id) == true)

    let yourself = await identityError { _ = try await identity.domain.sendFriendRequest(for: ada.id, to: ada.id) }
    #expect(yourself?.fields == ["other_user_id"])
    let nobody = await identityError { _ = try await identity.domain.sendFriendRequest(for: ada.id, to: "no-such-id") }
    #expect(nobody?.code == "notFound")
  }
}
