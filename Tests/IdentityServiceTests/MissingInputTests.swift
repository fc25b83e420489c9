import Foundation
import IdentityService
import Testing

/// The methods whose only input is an identifier or a credential: an empty one is
/// INVALID_ARGUMENT naming the field, not a lookup that finds nothing.
@Suite("Missing identifiers and credentials")
struct MissingInputTests {
  @Test("sign-in without an address or a password names both")
  func emptyLogin() async throws {
    let identity = try await TestIdentity()
    let error = await identityError { _ = try await identity.domain.login(email: "  ", password: "") }
    #expect(error?.fields == ["email", "password"])
  }

  @Test("answering or removing without an id names the id", arguments: ["", "   "])
  func emptyIdentifiers(id: String) async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let respond = await identityError {
      try await identity.domain.respondToFriendRequest(userID: ada.id, requestID: id, accept: true)
    }
    #expect(respond?.fields == ["request_id"])
    let unfriend = await identityError { try await identity.domain.removeFriend(userID: ada.id, friendID: id) }
    #expect(unfriend?.fields == ["user_id"])
    let remove = await identityError { try await identity.domain.removeEmergencyContact(userID: ada.id, contactID: id) }
    #expect(remove?.fields == ["contact_id"])
    let update = await identityError {
      _ = try await identity.domain.updateEmergencyContact(userID: ada.id, contactID: id, changes: EmergencyContactChanges())
    }
    #expect(update?.fields == ["contact_id"])
  }
}
