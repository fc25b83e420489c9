import BinarioEvents
import BinarioPayments
import BinarioProto
import BinarioStorage
import Foundation
import GRDB
import IdentityService
import Testing

@Suite("Payment methods on file")
struct PaymentMethodsTests {
  static let visa = PaymentCard(number: "4242 4242 4242 4242", expiryMonth: 12, expiryYear: 2030, securityCode: "123")
  static let mastercard = PaymentCard(number: "5555555555554444", expiryMonth: 3, expiryYear: 2031, securityCode: "456")
  static let amex = PaymentCard(number: "378282246310005", expiryMonth: 1, expiryYear: 2032, securityCode: "1234")

  @Test("the first card is the default; a later one becomes it only when asked")
  func defaults() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let visa = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.visa, makeDefault: false)
    #expect(visa.isDefault && visa.brand == "visa" && visa.last4 == "4242")
    let mastercard = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.mastercard, makeDefault: false)
    #expect(!mastercard.isDefault)
    identity.clock.advance(by: 1)
    let amex = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.amex, makeDefault: true)
    #expect(amex.isDefault)
    let listed = try await identity.domain.paymentMethods(userID: ada.id)
    #expect(listed.map(\.id) == [amex.id, mastercard.id, visa.id] || listed.map(\.id) == [amex.id, visa.id, mastercard.id])
    #expect(listed.filter(\.isDefault).map(\.id) == [amex.id])

    let chosen = try await identity.domain.setDefaultPaymentMethod(userID: ada.id, paymentMethodID: visa.id)
    #expect(chosen.isDefault)
    #expect(try await identity.domain.paymentMethodOnFile(userID: ada.id)?.id == visa.id)
    // A charging service may name another of the user's cards, never someone else's.
    #expect(try await identity.domain.paymentMethodOnFile(userID: ada.id, paymentMethodID: amex.id)?.last4 == "0005")
    let bob = try await identity.confirmedAccount("bob@example.com")
    let notBobs = await identityError {
      _ = try await identity.domain.paymentMethodOnFile(userID: bob.id, paymentMethodID: amex.id)
    }
    #expect(notBobs?.code == "notFound")
  }

  @Test("removing the default makes the newest remaining card the default")
  func removeDefault() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let first = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.visa, makeDefault: false)
    identity.clock.advance(by: 1)
    let second = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.mastercard, makeDefault: false)
    try await identity.domain.removePaymentMethod(userID: ada.id, paymentMethodID: first.id)
    #expect(try await identity.domain.paymentMethodOnFile(userID: ada.id)?.id == second.id)
    try await identity.domain.removePaymentMethod(userID: ada.id, paymentMethodID: second.id)
    #expect(try await identity.domain.paymentMethodOnFile(userID: ada.id) == nil)
  }

  @Test("each change of the name, verified phone or default card is told whole as an event, in its transaction")
  func profileEvents() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let visa = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.visa, makeDefault: false)
    _ = try await identity.domain.verifyPhone(userID: ada.id, code: try await identity.latestPhoneCode(to: "+393331234567"))
    identity.clock.advance(by: 1)
    let amex = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.amex, makeDefault: true)
    try await identity.domain.removePaymentMethod(userID: ada.id, paymentMethodID: amex.id)
    try await identity.domain.removePaymentMethod(userID: ada.id, paymentMethodID: visa.id)

    let told = try await EventLogStore(pool: identity.database.pool).events(
      after: 0,
      types: [Binario_Identity_V1_AccountProfileChanged.protoMessageName],
      limit: 20
    ).events
    let profiles = try told.map { try Binario_Identity_V1_AccountProfileChanged(serializedBytes: $0.payload) }
    #expect(told.allSatisfy { $0.subjects == [ada.id] })
    #expect(profiles.allSatisfy { $0.userID == ada.id && $0.displayName == "Ada Lovelace" })
    // Added visa; verified; added amex as default; removed it (visa again); removed visa.
    #expect(profiles.map(\.verifiedPhone) == ["", "+393331234567", "+393331234567", "+393331234567", "+393331234567"])
    #expect(profiles.map(\.defaultPaymentMethodID) == [visa.id, visa.id, amex.id, visa.id, ""])
    #expect(profiles.map(\.defaultCardLast4) == ["4242", "4242", "0005", "4242", ""])
    #expect(profiles[0].defaultCardProviderToken == visa.providerToken)
  }

  @Test("accounts ready before the event existed are told once, by a migration")
  func profilesToldByMigration() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    _ = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.visa, makeDefault: false)
    _ = try await identity.confirmedAccount("bob@example.com")  // no card, phone not verified: nothing to tell
    // As a database was before v8: no profile events, v8 not applied.
    try await identity.database.pool.write { db in
      try db.execute(sql: "DELETE FROM event_log")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v8-account-profiles-told'")
    }
    try identity.database.pool.close()
    let reopened = try ServiceDatabase.open(at: identity.database.path, migrations: IdentityMigrations.all)
    let told = try await EventLogStore(pool: reopened).events(after: 0, types: [], limit: 10).events
    #expect(told.map(\.type) == [Binario_Identity_V1_AccountProfileChanged.protoMessageName])
    let profile = try Binario_Identity_V1_AccountProfileChanged(serializedBytes: told[0].payload)
    #expect(profile.userID == ada.id && profile.defaultCardLast4 == "4242" && profile.verifiedPhone.isEmpty)
  }

  @Test("the card number and security code are never stored")
  func neverStored() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let method = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.visa, makeDefault: false)
    #expect(method.providerToken.hasPrefix("tok_test_"))
    let rows = try await identity.database.pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM payment_method") }
    let everything = rows.map { "\($0)" }.joined()
    #expect(!everything.contains("4242424242424242"))
    #expect(!everything.contains("4242 4242"))
    #expect(everything.contains(method.providerToken))
  }

  @Test("a declined card is FAILED_PRECONDITION; malformed details name each field")
  func refusals() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let declined = await identityError {
      _ = try await identity.domain.addPaymentMethod(
        userID: ada.id,
        card: PaymentCard(number: TestPaymentProvider.declinedCardNumber, expiryMonth: 1, expiryYear: 2030, securityCode: "123"),
        makeDefault: false
      )
    }
    #expect(declined?.code == "failedPrecondition")
    let malformed = await identityError {
      _ = try await identity.domain.addPaymentMethod(
        userID: ada.id,
        card: PaymentCard(number: "1234", expiryMonth: 0, expiryYear: 2020, securityCode: ""),
        makeDefault: false
      )
    }
    #expect(malformed?.fields == ["card_number", "expiry_month", "expiry_year", "security_code"])
    let expired = await identityError {
      _ = try await identity.domain.addPaymentMethod(
        userID: ada.id,
        card: PaymentCard(number: "4242424242424242", expiryMonth: 1, expiryYear: 2026, securityCode: "123"),
        makeDefault: false
      )
    }
    #expect(expired?.fields == ["expiry_year"])
    #expect(try await identity.domain.paymentMethods(userID: ada.id).isEmpty)
  }

  @Test("someone else's card, or none, is NOT_FOUND; an empty id names the field")
  func notYours() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com")
    let card = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.visa, makeDefault: false)
    let remove = await identityError { try await identity.domain.removePaymentMethod(userID: bob.id, paymentMethodID: card.id) }
    #expect(remove?.code == "notFound")
    let choose = await identityError { _ = try await identity.domain.setDefaultPaymentMethod(userID: bob.id, paymentMethodID: card.id) }
    #expect(choose?.code == "notFound")
    let empty = await identityError { try await identity.domain.removePaymentMethod(userID: ada.id, paymentMethodID: " ") }
    #expect(empty?.fields == ["payment_method_id"])
    #expect(try await identity.domain.paymentMethods(userID: ada.id).count == 1)
  }

  @Test("an account keeps at most the configured number of cards")
  func limit() async throws {
    var policy = IdentityPolicy.forTests
    policy.maximumPaymentMethods = 2
    let identity = try await TestIdentity(policy: policy)
    let ada = try await identity.confirmedAccount("ada@example.com")
    _ = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.visa, makeDefault: false)
    _ = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.mastercard, makeDefault: false)
    let third = await identityError { _ = try await identity.domain.addPaymentMethod(userID: ada.id, card: Self.amex, makeDefault: false) }
    #expect(third?.code == "failedPrecondition")
  }
}
