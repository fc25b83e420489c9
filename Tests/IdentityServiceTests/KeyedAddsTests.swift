import BinarioDomain
import Foundation
import IdentityService
import Testing

/// Cards, emergency contacts and contacts added again with the same idempotency key (a retry
/// after a lost answer, or the gateway sending a call again after identity restarted): the
/// answer is what the first add made, and nothing is added, charged or emailed twice.
@Suite("Adds sent again with their idempotency key")
struct KeyedAddsTests {
  @Test func aCardAddedAgainIsTheSameCard() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let key = try IdempotencyKey(caller: ada.id, key: "card-1")
    let first = try await identity.domain.addPaymentMethod(userID: ada.id, card: PaymentMethodsTests.visa, makeDefault: false, key: key)
    let again = try await identity.domain.addPaymentMethod(userID: ada.id, card: PaymentMethodsTests.visa, makeDefault: false, key: key)
    #expect(again == first)
    #expect(try await identity.domain.paymentMethods(userID: ada.id).map(\.id) == [first.id])
    // Another person's same key is their own card.
    let bob = try await identity.confirmedAccount("bob@example.com")
    let bobs = try await identity.domain.addPaymentMethod(
      userID: bob.id,
      card: PaymentMethodsTests.visa,
      makeDefault: false,
      key: try IdempotencyKey(caller: bob.id, key: "card-1")
    )
    #expect(bobs.id != first.id)
  }

  @Test func anEmergencyContactAddedAgainIsTheSameContact() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let key = try IdempotencyKey(caller: ada.id, key: "mum")
    let mum = try await identity.domain.addEmergencyContact(userID: ada.id, name: "Mum", phone: "+393330000000", channel: .sms, key: key)
    let again = try await identity.domain.addEmergencyContact(userID: ada.id, name: "Mum", phone: "+393330000000", channel: .sms, key: key)
    #expect(again == mum)
    #expect(try await identity.domain.emergencyContacts(userID: ada.id) == [mum])
  }

  @Test func aContactAddedAgainIsInvitedOnce() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let key = try IdempotencyKey(caller: ada.id, key: "charles")
    let added = try await identity.domain.addContact(userID: ada.id, name: "Charles", email: "charles@example.com", key: key)
    // Without the key this would be ALREADY_EXISTS ("already saved"); with it, the same answer.
    let again = try await identity.domain.addContact(userID: ada.id, name: "Charles", email: "charles@example.com", key: key)
    guard case .pending(let contact) = added, case .pending(let repeated) = again else {
      Issue.record("expected pending contacts, got \(added) and \(again)")
      return
    }
    #expect(repeated == contact)
    #expect(try await identity.store.outboxMessages(recipient: "charles@example.com", limit: 10).count == 1)
  }
}
