import Foundation
import IdentityService
import Testing

@Suite("Contacts who are not users yet")
struct ContactsTests {
  @Test("a saved address becomes a friendship when its owner registers and confirms it")
  func becomesFriendship() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let added = try await identity.domain.addContact(userID: ada.id, name: " Charles ", email: "Charles@Example.com")
    guard case .pending(let contact) = added else {
      Issue.record("expected a pending contact, got \(added)")
      return
    }
    #expect(contact.name == "Charles" && contact.email == "charles@example.com")
    #expect(try await identity.domain.pendingContacts(userID: ada.id) == [contact])
    #expect(try await identity.domain.friends(userID: ada.id).isEmpty)
    // The invitation went through the email outbox.
    #expect(try await identity.latestMessage(to: "charles@example.com").subject.contains("Ada"))

    let charles = try await identity.domain.register(TestIdentity.details(email: "charles@example.com", firstName: "Charles"))
    // Registered but unconfirmed: still pending.
    #expect(try await identity.domain.pendingContacts(userID: ada.id).count == 1)
    try await identity.domain.confirmEmail(email: "charles@example.com", code: try await identity.latestCode(to: "charles@example.com"))
    #expect(try await identity.domain.pendingContacts(userID: ada.id).isEmpty)
    #expect(try await identity.domain.friends(userID: ada.id).map(\.userID) == [charles.id])
    #expect(try await identity.domain.friends(userID: charles.id).map(\.userID) == [ada.id])
  }

  @Test("an address that changes to a saved one becomes a friendship once confirmed")
  func changedAddress() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com")
    _ = try await identity.domain.addContact(userID: ada.id, name: "Bobby", email: "bobby@example.com")
    try await identity.domain.changeEmail(userID: bob.id, password: TestIdentity.password, newEmail: "bobby@example.com")
    try await identity.domain.confirmEmail(email: "bobby@example.com", code: try await identity.latestCode(to: "bobby@example.com"))
    #expect(try await identity.domain.friends(userID: ada.id).map(\.userID) == [bob.id])
  }

  @Test("a registered address gets a friend request instead")
  func registeredGetsRequest() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com")
    let added = try await identity.domain.addContact(userID: ada.id, name: "Bob", email: "bob@example.com")
    guard case .friendRequestSent(let request) = added else {
      Issue.record("expected a friend request, got \(added)")
      return
    }
    #expect(request.to.userID == bob.id)
    #expect(try await identity.domain.pendingContacts(userID: ada.id).isEmpty)
  }

  @Test("bad input names the field; a second save is ALREADY_EXISTS; removing works once")
  func badInput() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bad = await identityError { _ = try await identity.domain.addContact(userID: ada.id, name: " ", email: "nope") }
    #expect(bad?.fields == ["email", "name"])
    let own = await identityError { _ = try await identity.domain.addContact(userID: ada.id, name: "Me", email: "ada@example.com") }
    #expect(own?.fields == ["email"])
    guard case .pending(let contact) = try await identity.domain.addContact(userID: ada.id, name: "Cy", email: "cy@example.com") else {
      Issue.record("expected a pending contact")
      return
    }
    let twice = await identityError { _ = try await identity.domain.addContact(userID: ada.id, name: "Cy", email: "CY@example.com") }
    #expect(twice?.code == "alreadyExists")
    try await identity.domain.removeContact(userID: ada.id, contactID: contact.id)
    let again = await identityError { try await identity.domain.removeContact(userID: ada.id, contactID: contact.id) }
    #expect(again?.code == "notFound")
    let empty = await identityError { try await identity.domain.removeContact(userID: ada.id, contactID: "") }
    #expect(empty?.fields == ["contact_id"])
  }
}
