import Foundation
import GRDB
import IdentityService
import Testing

@Suite("Optional profile fields and phone verification")
struct PhoneVerificationTests {
  @Test("email, password and a first name are enough to sign up (SubscribeME's form)")
  func minimalSignUp() async throws {
    let identity = try await TestIdentity()
    let account = try await identity.domain.register(
      PersonalDetails(
        email: "sam@example.com",
        password: TestIdentity.password,
        firstName: "Sam",
        lastName: "",
        phone: "",
        birthDate: "",
        gender: nil
      )
    )
    #expect(account.lastName.isEmpty && account.phone.isEmpty && account.birthDate.isEmpty && account.gender == nil)
    try await identity.domain.confirmEmail(email: "sam@example.com", code: try await identity.latestCode(to: "sam@example.com"))
    _ = try await identity.domain.login(email: "sam@example.com", password: TestIdentity.password)
    #expect(try await identity.store.outboxMessages(recipient: nil, limit: 10).allSatisfy { $0.channel == .email })
  }

  @Test("a phone given at sign-up gets a code by SMS; the right code verifies it, once")
  func verifyAtSignUp() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    #expect(!ada.phoneVerified)
    let code = try await identity.latestPhoneCode(to: "+393331234567")
    let verified = try await identity.domain.verifyPhone(userID: ada.id, code: code)
    #expect(verified.phoneVerified)
    #expect(verified.verifiedPhone == "+393331234567")
    // Used up: no code waits any more.
    #expect(try await identity.store.phoneVerification(accountID: ada.id) == nil)
  }

  @Test("the code is stored hashed, never as sent")
  func storedHashed() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let code = try await identity.latestPhoneCode(to: "+393331234567")
    let stored = try #require(try await identity.store.phoneVerification(accountID: ada.id))
    #expect(stored.codeHash != code)
    #expect(!stored.codeHash.contains(code))
    #expect(stored.codeHash.count == 64)
  }

  @Test("wrong codes name the field and lock the account like failed sign-ins do")
  func throttled() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let code = try await identity.latestPhoneCode(to: "+393331234567")
    let wrong = code == "000000" ? "111111" : "000000"
    for _ in 0 ..< 5 {
      let error = await identityError { _ = try await identity.domain.verifyPhone(userID: ada.id, code: wrong) }
      #expect(error?.fields == ["code"])
    }
    let locked = await identityError { _ = try await identity.domain.verifyPhone(userID: ada.id, code: code) }
    #expect(locked?.code == "throttled")
    #expect(locked?.description.hasPrefix("too many wrong codes; try again after") == true)
    identity.clock.advance(by: 61)
    #expect(try await identity.domain.verifyPhone(userID: ada.id, code: code).phoneVerified)
  }

  @Test("a malformed code names the field; an expired code needs a new one")
  func malformedAndExpired() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let malformed = await identityError { _ = try await identity.domain.verifyPhone(userID: ada.id, code: "12a") }
    #expect(malformed?.fields == ["code"])
    let code = try await identity.latestPhoneCode(to: "+393331234567")
    identity.clock.advance(by: 11 * 60)
    let expired = await identityError { _ = try await identity.domain.verifyPhone(userID: ada.id, code: code) }
    #expect(expired?.code == "failedPrecondition")
    try await identity.domain.resendPhoneCode(userID: ada.id)
    let fresh = try await identity.latestPhoneCode(to: "+393331234567")
    #expect(try await identity.domain.verifyPhone(userID: ada.id, code: fresh).phoneVerified)
  }

  @Test("a new code is sent at most once a minute, and replaces the previous one")
  func resend() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let first = try await identity.latestPhoneCode(to: "+393331234567")
    let soon = await identityError { try await identity.domain.resendPhoneCode(userID: ada.id) }
    #expect(soon?.code == "throttled")
    #expect(soon?.description.hasPrefix("a code was sent to +393331234567 moments ago; try again after") == true)
    identity.clock.advance(by: 60)
    try await identity.domain.resendPhoneCode(userID: ada.id)
    let second = try await identity.latestPhoneCode(to: "+393331234567")
    if first != second {
      let old = await identityError { _ = try await identity.domain.verifyPhone(userID: ada.id, code: first) }
      #expect(old?.fields == ["code"])
    }
    #expect(try await identity.domain.verifyPhone(userID: ada.id, code: second).phoneVerified)
    let again = await identityError { try await identity.domain.resendPhoneCode(userID: ada.id) }
    #expect(again?.code == "failedPrecondition")
  }

  @Test("changing the phone makes it unverified and texts the new one; removing it needs no code")
  func changePhone() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    _ = try await identity.domain.verifyPhone(userID: ada.id, code: try await identity.latestPhoneCode(to: "+393331234567"))
    let changed = try await identity.domain.updateMe(userID: ada.id, changes: ProfileChanges(phone: "+393339999999"))
    #expect(changed.phone == "+393339999999" && !changed.phoneVerified)
    let code = try await identity.latestPhoneCode(to: "+393339999999")
    #expect(try await identity.domain.verifyPhone(userID: ada.id, code: code).phoneVerified)
    // Setting other fields leaves the verified phone alone.
    #expect(try await identity.domain.updateMe(userID: ada.id, changes: ProfileChanges(lastName: "")).phoneVerified)
    let removed = try await identity.domain.updateMe(userID: ada.id, changes: ProfileChanges(phone: ""))
    #expect(removed.phone.isEmpty && !removed.phoneVerified && removed.verifiedPhone == nil)
    let nothing = await identityError { _ = try await identity.domain.verifyPhone(userID: ada.id, code: "123456") }
    #expect(nothing?.code == "failedPrecondition")
  }

  @Test("optional fields can be cleared and the gender left unsaid")
  func clearOptionalFields() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let cleared = try await identity.domain.updateMe(
      userID: ada.id,
      changes: ProfileChanges(lastName: " ", birthDate: "", gender: .some(nil))
    )
    #expect(cleared.lastName.isEmpty && cleared.birthDate.isEmpty && cleared.gender == nil)
    #expect(try await identity.domain.me(userID: ada.id) == cleared)
  }
}
