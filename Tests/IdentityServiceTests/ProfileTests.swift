import BinarioAuth
import Foundation
import GRDB
import IdentityService
import Testing

@Suite("Profile: me, changes, password, email, deletion")
struct ProfileTests {
  @Test("GetMe and UpdateMe change only the given fields, each checked")
  func update() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let updated = try await identity.domain.updateMe(
      userID: ada.id,
      changes: ProfileChanges(lastName: "  Byron ", phone: "+44 20 7946 0958", gender: .some(.other))
    )
    #expect(updated.firstName == "Ada")
    #expect(updated.lastName == "Byron")
    #expect(updated.phone == "+442079460958")
    #expect(updated.gender == .other)
    #expect(try await identity.domain.me(userID: ada.id) == updated)

    let error = await identityError {
      _ = try await identity.domain.updateMe(
        userID: ada.id,
        changes: ProfileChanges(firstName: "", phone: "12", birthDate: "yesterday", gender: .some(nil))
      )
    }
    #expect(error?.fields == ["birth_date", "first_name", "phone"])
    #expect(try await identity.domain.me(userID: ada.id) == updated)
  }

  @Test("an account that no longer exists is UNAUTHENTICATED")
  func missingAccount() async throws {
    let identity = try await TestIdentity()
    let error = await identityError { _ = try await identity.domain.me(userID: "nobody") }
    #expect(error?.code == "unauthenticated")
  }

  @Test("ChangePassword needs the current one and ends the other sessions, not this one")
  func changePassword() async throws {
    let identity = try await TestIdentity()
    let here = try await identity.signedIn("ada@example.com")
    let elsewhere = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)

    let wrong = await identityError {
      try await identity.domain.changePassword(
        userID: here.userID,
        sessionID: here.sessionID,
        current: "not it 12345",
        new: "brand new pass 7"
      )
    }
    #expect(wrong?.fields == ["current_password"])
    let weak = await identityError {
      try await identity.domain.changePassword(
        userID: here.userID,
        sessionID: here.sessionID,
        current: TestIdentity.password,
        new: "weak"
      )
    }
    #expect(weak?.fields == ["new_password"])

    try await identity.domain.changePassword(
      userID: here.userID,
      sessionID: here.sessionID,
      current: TestIdentity.password,
      new: "brand new pass 7"
    )
    #expect(try await identity.store.isSessionOpen(id: here.sessionID))
    #expect(try await !identity.store.isSessionOpen(id: elsewhere.sessionID))
    _ = try await identity.domain.login(email: "ada@example.com", password: "brand new pass 7")
    let old = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password) }
    #expect(old?.code == "unauthenticated")
  }

  @Test("ChangeEmail waits for the new address's code; then the account moves")
  func changeEmail() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    try await identity.confirmedAccount("taken@example.com", firstName: "Tak")

    let taken = await identityError {
      try await identity.domain.changeEmail(userID: ada.id, password: TestIdentity.password, newEmail: "taken@example.com")
    }
    #expect(taken?.code == "alreadyExists")
    let wrong = await identityError {
      try await identity.domain.changeEmail(userID: ada.id, password: "nope nope 12", newEmail: "new@example.com")
    }
    #expect(wrong?.fields == ["password"])
    let same = await identityError {
      try await identity.domain.changeEmail(userID: ada.id, password: TestIdentity.password, newEmail: "ADA@example.com")
    }
    #expect(same?.fields == ["new_email"])

    try await identity.domain.changeEmail(userID: ada.id, password: TestIdentity.password, newEmail: "New@Example.com")
    let pending = try await identity.domain.me(userID: ada.id)
    #expect(pending.email == "ada@example.com")
    #expect(pending.pendingEmail == "new@example.com")

    try await identity.domain.confirmEmail(email: "new@example.com", code: try await identity.latestCode(to: "new@example.com"))
    let moved = try await identity.domain.me(userID: ada.id)
    #expect(moved.email == "new@example.com")
    #expect(moved.pendingEmail == nil)
    _ = try await identity.domain.login(email: "new@example.com", password: TestIdentity.password)
  }

  @Test("DeleteMe needs the password, ends every session and leaves nothing personal")
  func deleteMe() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.signedIn("ada@example.com")
    let bob = try await identity.signedIn("bob@example.com", firstName: "Bob")
    _ = try await identity.domain.sendFriendRequest(userID: ada.userID, email: "bob@example.com")
    let requests = try await identity.domain.friendRequests(userID: bob.userID)
    try await identity.domain.respondToFriendRequest(userID: bob.userID, requestID: requests.incoming[0].id, accept: true)
    _ = try await identity.domain.addEmergencyContact(userID: ada.userID, name: "Mum", phone: "+393330000000", channel: .sms)

    let wrong = await identityError { try await identity.domain.deleteMe(userID: ada.userID, password: "not it 12345") }
    #expect(wrong?.fields == ["password"])

    let feed = try await identity.domain.revocationFeed()
    var updates = feed.updates.makeAsyncIterator()
    try await identity.domain.deleteMe(userID: ada.userID, password: TestIdentity.password)
    #expect(await updates.next()?.sessionIDs == [ada.sessionID])

    let id = ada.userID
    let leftovers: [(String, StatementArguments)] = [
      ("SELECT COUNT(*) FROM account WHERE id = ?", [id]),
      ("SELECT COUNT(*) FROM account_role WHERE account_id = ?", [id]),
      ("SELECT COUNT(*) FROM session WHERE account_id = ?", [id]),
      ("SELECT COUNT(*) FROM refresh_token WHERE session_id = ?", [ada.sessionID]),
      ("SELECT COUNT(*) FROM friend_request WHERE from_account_id = ? OR to_account_id = ?", [id, id]),
      ("SELECT COUNT(*) FROM friendship WHERE account_id = ? OR friend_id = ?", [id, id]),
      ("SELECT COUNT(*) FROM emergency_contact WHERE account_id = ?", [id]),
      ("SELECT COUNT(*) FROM email_confirmation WHERE account_id = ?", [id]),
      ("SELECT COUNT(*) FROM login_failure WHERE email = ?", [IdentityStore.throttleKey("ada@example.com")]),
      ("SELECT COUNT(*) FROM outbox WHERE recipient = ?", ["ada@example.com"]),
    ]
    let remaining = try await identity.database.pool.read { db in
      try leftovers.map { sql, arguments in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? -1 }
    }
    #expect(remaining.allSatisfy { $0 == 0 }, "rows left: \(remaining)")
    #expect(try await identity.store.outboxMessages(recipient: "ada@example.com", limit: 10).isEmpty)
    #expect(try await identity.domain.friends(userID: bob.userID).isEmpty)
    let gone = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password) }
    #expect(gone?.code == "unauthenticated")
    // That failed sign-in is counted under the address's hash, never the address.
    let inClear = try await identity.database.pool.read { db in
      try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM login_failure WHERE email = 'ada@example.com'")
    }
    #expect(inClear == 0)
    #expect(try await identity.store.loginFailures(email: "ada@example.com").count == 1)
    // The address is free again.
    _ = try await identity.domain.register(TestIdentity.details(email: "ada@example.com"))
  }
}
