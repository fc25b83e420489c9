import BinarioAuth
import Foundation
import IdentityService
import Testing

@Suite("Roles and administration")
struct AdministrationTests {
  @Test("the first admin comes from configuration once; later starts change nothing")
  func firstAdmin() async throws {
    let identity = try await TestIdentity()
    let admin = try #require(try await identity.domain.ensureFirstAdmin(email: "Root@Example.com", password: "admin password 1"))
    #expect(admin.roles == [.passenger, .admin])
    #expect(admin.emailConfirmed)
    #expect(try await identity.domain.ensureFirstAdmin(email: "other@example.com", password: "admin password 1") == nil)
    let tokens = try await identity.domain.login(email: "root@example.com", password: "admin password 1")
    #expect(try identity.domain.accessTokenVerifier.verify(tokens.accessToken).roles == [.passenger, .admin])
    let fresh = try await TestIdentity()
    let weak = await identityError { _ = try await fresh.domain.ensureFirstAdmin(email: "a@b.com", password: "weak") }
    #expect(weak?.fields == ["admin-password"])
  }

  @Test("an admin creates a confirmed driver who can sign in at once")
  func createDriver() async throws {
    let identity = try await TestIdentity()
    let driver = try await identity.domain.createDriver(TestIdentity.details(email: "driver@example.com", firstName: "Dina"), by: "admin-id")
    #expect(driver.roles == [.passenger, .driver] && driver.emailConfirmed)
    let tokens = try await identity.domain.login(email: "driver@example.com", password: TestIdentity.password)
    #expect(tokens.roles.contains(.driver))
    let invalid = await identityError {
      _ = try await identity.domain.createDriver(TestIdentity.details(email: "bad", password: "x"), by: "admin-id")
    }
    #expect(invalid?.fields == ["email", "password"])
    let duplicate = await identityError {
      _ = try await identity.domain.createDriver(TestIdentity.details(email: "driver@example.com"), by: "admin-id")
    }
    #expect(duplicate?.code == "alreadyExists")
  }

  @Test("granting and revoking a role ends the account's sessions so the change applies at once")
  func grantAndRevoke() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.signedIn("ada@example.com")
    let feed = try await identity.domain.revocationFeed()
    var updates = feed.updates.makeAsyncIterator()

    let granted = try await identity.domain.grantRole(.driver, to: .email("ADA@example.com"), by: "admin-id")
    #expect(granted.roles == [.passenger, .driver])
    #expect(await updates.next()?.sessionIDs == [ada.sessionID])
    let relogged = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)
    #expect(relogged.roles == [.passenger, .driver])

    let revoked = try await identity.domain.revokeRole(.driver, from: .id(ada.userID), by: "admin-id")
    #expect(revoked.roles == [.passenger])
    #expect(await updates.next()?.sessionIDs == [relogged.sessionID])
  }

  @Test("the last admin cannot lose the role; with a second admin they can")
  func lastAdmin() async throws {
    let identity = try await TestIdentity()
    let root = try #require(try await identity.domain.ensureFirstAdmin(email: "root@example.com", password: "admin password 1"))
    let error = await identityError { _ = try await identity.domain.revokeRole(.admin, from: .id(root.id), by: "admin-id") }
    #expect(error?.code == "failedPrecondition")
    let deleteLast = await identityError { try await identity.domain.deleteMe(userID: root.id, password: "admin password 1") }
    #expect(deleteLast?.code == "failedPrecondition")

    try await identity.confirmedAccount("ada@example.com")
    _ = try await identity.domain.grantRole(.admin, to: .email("ada@example.com"), by: "admin-id")
    let demoted = try await identity.domain.revokeRole(.admin, from: .id(root.id), by: "admin-id")
    #expect(demoted.roles == [.passenger])
  }

  @Test("role changes name the missing or unknown account")
  func roleValidation() async throws {
    let identity = try await TestIdentity()
    let missing = await identityError { _ = try await identity.domain.grantRole(nil, to: nil, by: "admin-id") }
    #expect(missing?.fields == ["account", "role"])
    let empty = await identityError { _ = try await identity.domain.grantRole(.admin, to: .email(" "), by: "admin-id") }
    #expect(empty?.fields == ["account.email"])
    let unknown = await identityError { _ = try await identity.domain.grantRole(.admin, to: .id("nobody"), by: "admin-id") }
    #expect(unknown?.code == "notFound")
  }

  @Test("the outbox lists newest first, by recipient, limited")
  func outbox() async throws {
    let identity = try await TestIdentity()
    for index in 0 ..< 3 {
      _ = try await identity.domain.register(TestIdentity.details(email: "user\(index)@example.com"))
      identity.clock.advance(by: 1)
    }
    // Each registration emails a confirmation code, then texts a phone code.
    let all = try await identity.domain.outboxMessages(recipient: "", limit: 0)
    #expect(
      all.map(\.recipient) == [
        "+393331234567", "user2@example.com", "+393331234567", "user1@example.com", "+393331234567", "user0@example.com",
      ]
    )
    #expect(all.filter { $0.channel == .email }.allSatisfy { $0.subject.hasPrefix("Your Binario confirmation code") })
    #expect(all.filter { $0.channel == .sms }.allSatisfy { $0.body.contains("phone verification code") })
    #expect(try await identity.domain.outboxMessages(recipient: "USER1@example.com", limit: 0).count == 1)
    #expect(try await identity.domain.outboxMessages(recipient: "", limit: 2).count == 2)
  }
}
