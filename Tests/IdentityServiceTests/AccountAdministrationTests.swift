import BinarioAuth
import Foundation
import IdentityService
import Testing

@Suite("Account administration and the audit log")
struct AccountAdministrationTests {
  /// An identity with an admin (returned) and a few accounts.
  func populated() async throws -> (TestIdentity, admin: Account) {
    let identity = try await TestIdentity()
    let admin = try #require(try await identity.domain.ensureFirstAdmin(email: "root@example.com", password: "root password 1"))
    try await identity.confirmedAccount("ada@example.com", firstName: "Ada", lastName: "Lovelace")
    try await identity.confirmedAccount("bob@example.com", firstName: "Bob", lastName: "Byron")
    try await identity.confirmedAccount("carla@example.com", firstName: "Carla", lastName: "Lovelace")
    _ = try await identity.domain.createDriver(TestIdentity.details(email: "dina@example.com", firstName: "Dina", lastName: "Driver"), by: admin.id)
    return (identity, admin)
  }

  @Test("accounts are listed by email, searched by name or address and role, a page at a time")
  func listAndSearch() async throws {
    let (identity, _) = try await populated()
    let all = try await identity.domain.listAccounts(AccountSearch())
    #expect(
      all.accounts.map(\.email) == [
        "ada@example.com", "bob@example.com", "carla@example.com", "dina@example.com", "root@example.com",
      ]
    )
    #expect(all.nextAfterEmail == nil)
    let lovelaces = try await identity.domain.listAccounts(AccountSearch(query: "LOVE"))
    #expect(lovelaces.accounts.map(\.email) == ["ada@example.com", "carla@example.com"])
    let drivers = try await identity.domain.listAccounts(AccountSearch(role: .driver))
    #expect(drivers.accounts.map(\.email) == ["dina@example.com"])
    let byAddress = try await identity.domain.listAccounts(AccountSearch(query: "bob@"))
    #expect(byAddress.accounts.map(\.email) == ["bob@example.com"])
    // A wildcard in the query is matched literally.
    #expect(try await identity.domain.listAccounts(AccountSearch(query: "%")).accounts.isEmpty)

    var pages: [[String]] = []
    var after: String?
    repeat {
      let page = try await identity.domain.listAccounts(AccountSearch(pageSize: 2, afterEmail: after))
      pages.append(page.accounts.map(\.email))
      after = page.nextAfterEmail
    } while after != nil
    #expect(pages == [["ada@example.com", "bob@example.com"], ["carla@example.com", "dina@example.com"], ["root@example.com"]])
    let tooBig = await identityError { _ = try await identity.domain.listAccounts(AccountSearch(pageSize: 1000)) }
    #expect(tooBig?.fields == ["page_size"])
  }

  @Test("an admin reads and edits any profile; every change is audited")
  func readAndUpdate() async throws {
    let (identity, admin) = try await populated()
    let ada = try await identity.domain.account(.email("ADA@example.com"))
    let updated = try await identity.domain.updateAccount(
      .id(ada.id),
      changes: ProfileChanges(lastName: "King", phone: "+393330000001"),
      by: admin.id
    )
    #expect(updated.lastName == "King" && updated.phone == "+393330000001" && !updated.phoneVerified)
    let bad = await identityError {
      _ = try await identity.domain.updateAccount(.id(ada.id), changes: ProfileChanges(firstName: "", phone: "x"), by: admin.id)
    }
    #expect(bad?.fields == ["first_name", "phone"])
    let nothing = await identityError { _ = try await identity.domain.updateAccount(.id(ada.id), changes: ProfileChanges(), by: admin.id) }
    #expect(nothing?.fields == ["account"])
    let unknown = await identityError { _ = try await identity.domain.account(.email("nobody@example.com")) }
    #expect(unknown?.code == "notFound")
    let entries = try await identity.domain.auditEntries(targetID: ada.id, limit: 0)
    #expect(entries.map(\.action) == [.updateAccount])
    #expect(entries.first?.actorEmail == "root@example.com")
    #expect(entries.first?.detail == "last_name, phone")
  }

  @Test("a disabled account cannot sign in or refresh, and its sessions end at once; enabled, it can again")
  func disableAndEnable() async throws {
    let (identity, admin) = try await populated()
    let session = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)
    let disabled = try await identity.domain.disableAccount(.email("ada@example.com"), reason: "fraud report #12", by: admin.id)
    #expect(disabled.disabled)
    #expect(try await !identity.store.isSessionOpen(id: session.sessionID))
    let login = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password) }
    #expect(login?.code == "permissionDenied")
    let wrongPassword = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: "wrong password 1") }
    #expect(wrongPassword?.code == "unauthenticated")
    let refresh = await identityError { _ = try await identity.domain.refresh(refreshToken: session.refreshToken) }
    #expect(refresh?.code == "unauthenticated")

    let enabled = try await identity.domain.enableAccount(.email("ada@example.com"), by: admin.id)
    #expect(!enabled.disabled)
    _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)
    let actions = try await identity.domain.auditEntries(targetID: enabled.id, limit: 10)
    #expect(actions.map(\.action) == [.enableAccount, .disableAccount])
    #expect(actions.last?.detail == "fraud report #12")
    let own = await identityError { _ = try await identity.domain.disableAccount(.id(admin.id), reason: "", by: admin.id) }
    #expect(own?.code == "failedPrecondition")
  }

  @Test("only driver accounts are deleted here; the entry outlives the account")
  func deleteDriver() async throws {
    let (identity, admin) = try await populated()
    let notDriver = await identityError { try await identity.domain.deleteDriver(.email("ada@example.com"), by: admin.id) }
    #expect(notDriver?.code == "failedPrecondition")
    let dina = try await identity.domain.account(.email("dina@example.com"))
    try await identity.domain.deleteDriver(.email("dina@example.com"), by: admin.id)
    #expect(try await identity.store.account(id: dina.id) == nil)
    let entries = try await identity.domain.auditEntries(targetID: "", limit: 0)
    #expect(entries.map(\.action) == [.deleteDriver, .createDriver])
    #expect(entries.first?.targetEmail == "dina@example.com")
    let missing = await identityError { try await identity.domain.deleteDriver(nil, by: admin.id) }
    #expect(missing?.fields == ["account"])
  }
}

@Suite("What identity tells other services")
struct ServiceLookupTests {
  @Test("accounts by ids and emails, each once; unknown ones left out; the phone only when verified")
  func lookup() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com")
    _ = try await identity.domain.verifyPhone(userID: bob.id, code: try await identity.latestPhoneCode(to: "+393331234567"))
    let found = try await identity.domain.lookupAccounts(ids: [ada.id, "nobody"], emails: ["BOB@example.com", "ada@example.com"])
    #expect(found.map(\.id) == [ada.id, bob.id])
    #expect(found[0].verifiedPhone == nil && found[1].verifiedPhone == "+393331234567")
    #expect(found[0].displayName == "Ada Lovelace")
  }

  @Test("friendship and the default card")
  func friendsAndCards() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let bob = try await identity.confirmedAccount("bob@example.com")
    #expect(try await !identity.domain.areFriends(ada.id, bob.id))
    let request = try await identity.domain.sendFriendRequest(userID: ada.id, email: "bob@example.com")
    try await identity.domain.respondToFriendRequest(userID: bob.id, requestID: request.id, accept: true)
    #expect(try await identity.domain.areFriends(ada.id, bob.id))
    #expect(try await identity.domain.paymentMethodOnFile(userID: ada.id) == nil)
    let card = try await identity.domain.addPaymentMethod(userID: ada.id, card: PaymentMethodsTests.visa, makeDefault: false)
    #expect(try await identity.domain.paymentMethodOnFile(userID: ada.id)?.providerToken == card.providerToken)
    let unknown = await identityError { _ = try await identity.domain.paymentMethodOnFile(userID: "nobody") }
    #expect(unknown?.code == "notFound")
    let empty = await identityError { _ = try await identity.domain.areFriends("", " ") }
    #expect(empty?.fields == ["other_user_id", "user_id"])
  }
}

@Suite("A disabled account's calls")
struct DisabledAccountCallsTests {
  @Test("a disabled account's still-valid token is refused by identity itself, before the gateway hears of it")
  func refusedAtOnce() async throws {
    let identity = try await TestIdentity()
    let admin = try #require(try await identity.domain.ensureFirstAdmin(email: "root@example.com", password: "root password 1"))
    let ada = try await identity.signedIn("ada@example.com")
    _ = try await identity.domain.disableAccount(.id(ada.userID), reason: "", by: admin.id)
    let me = await identityError { _ = try await identity.domain.me(userID: ada.userID) }
    #expect(me?.code == "unauthenticated")
    let cards = await identityError { _ = try await identity.domain.paymentMethods(userID: ada.userID) }
    #expect(cards?.code == "unauthenticated")
  }

  @Test("Google sign-in to a disabled account is PERMISSION_DENIED")
  func googleRefused() async throws {
    let setup = try await GoogleSignInTests.Setup.make()
    defer { Task { await setup.server.stop() } }
    let admin = try #require(try await setup.identity.domain.ensureFirstAdmin(email: "root@example.com", password: "root password 1"))
    let first = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token())
    _ = try await setup.identity.domain.disableAccount(.id(first.tokens.userID), reason: "", by: admin.id)
    let error = await identityError { _ = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token()) }
    #expect(error?.code == "permissionDenied")
  }
}
