import BinarioAuth
import Foundation
import IdentityService
import Testing

@Suite("Registration and email confirmation")
struct RegistrationTests {
  @Test("register → code by email → confirm → sign in")
  func happyPath() async throws {
    let identity = try await TestIdentity()
    let account = try await identity.domain.register(TestIdentity.details(email: "  Ada@Example.COM "))
    #expect(account.email == "ada@example.com")
    #expect(!account.emailConfirmed)
    #expect(account.roles == [.passenger])

    let code = try await identity.latestCode(to: "ada@example.com")
    #expect(code.count == 6 && code.allSatisfy(\.isNumber))
    try await identity.domain.confirmEmail(email: "ada@example.com", code: code)
    #expect(try await identity.domain.me(userID: account.id).emailConfirmed)

    let tokens = try await identity.domain.login(email: "ADA@example.com", password: TestIdentity.password)
    let verified = try identity.domain.accessTokenVerifier.verify(tokens.accessToken)
    #expect(verified.userID == account.id)
    #expect(verified.roles == [.passenger])
  }

  @Test("an account speaks the language it was made in: its code comes in it, and it can change it")
  func language() async throws {
    let identity = try await TestIdentity()
    let bea = try await identity.domain.register(TestIdentity.details(email: "bea@example.com", firstName: "Bea", language: "it"))
    #expect(bea.language == .italian)
    let email = try #require(try await identity.store.outboxMessages(recipient: "bea@example.com", limit: 1).first)
    #expect(email.subject.hasPrefix("Il tuo codice di conferma Binario: "), "\(email.subject)")
    #expect(email.body.hasPrefix("Ciao Bea,\n\nil tuo codice di conferma Binario è "), "\(email.body)")
    let text = try #require(try await identity.store.outboxMessages(recipient: "+393331234567", limit: 1).first)
    #expect(text.body.hasPrefix("Binario: il tuo codice di verifica del telefono è "), "\(text.body)")

    let english = try await identity.domain.updateMe(userID: bea.id, changes: ProfileChanges(language: "en"))
    #expect(english.language == .english)
    try await identity.domain.resendConfirmation(email: "bea@example.com")
    let again = try #require(try await identity.store.outboxMessages(recipient: "bea@example.com", limit: 1).first)
    #expect(again.subject.hasPrefix("Your Binario confirmation code: "), "\(again.subject)")

    let refused = await identityError { _ = try await identity.domain.updateMe(userID: bea.id, changes: ProfileChanges(language: "de")) }
    #expect(refused?.fields == ["language"])
    let unknown = await identityError {
      _ = try await identity.domain.register(TestIdentity.details(email: "cid@example.com", language: "klingon"))
    }
    #expect(unknown?.fields == ["language"])
  }

  @Test("signing in before confirming is FAILED_PRECONDITION (with the right password only)")
  func unconfirmed() async throws {
    let identity = try await TestIdentity()
    _ = try await identity.domain.register(TestIdentity.details(email: "bob@example.com"))
    let error = await identityError { _ = try await identity.domain.login(email: "bob@example.com", password: TestIdentity.password) }
    #expect(error?.code == "failedPrecondition")
    let wrong = await identityError { _ = try await identity.domain.login(email: "bob@example.com", password: "wrong password 1") }
    #expect(wrong?.code == "unauthenticated")
  }

  @Test("an address already registered is ALREADY_EXISTS, whatever its case")
  func duplicate() async throws {
    let identity = try await TestIdentity()
    _ = try await identity.domain.register(TestIdentity.details(email: "ada@example.com"))
    let error = await identityError { _ = try await identity.domain.register(TestIdentity.details(email: "ADA@example.com")) }
    #expect(error?.code == "alreadyExists")
  }

  @Test("every bad field is named at once")
  func everyBadField() async throws {
    let identity = try await TestIdentity()
    let details = PersonalDetails(
      email: "not-an-email",
      password: "short",
      firstName: "  ",
      lastName: "",
      phone: "3331234567",
      birthDate: "2999-01-01",
      gender: nil
    )
    let error = await identityError { _ = try await identity.domain.register(details) }
    #expect(error?.fields == ["birth_date", "email", "first_name", "password", "phone"])
  }

  @Test(
    "malformed fields are refused",
    arguments: [
      (
        "email",
        PersonalDetails(
          email: "a@b",
          password: "abcdefgh12",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "1990-01-01",
          gender: .male
        )
      ),
      (
        "email",
        PersonalDetails(
          email: "a b@c.com",
          password: "abcdefgh12",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "1990-01-01",
          gender: .male
        )
      ),
      (
        "password",
        PersonalDetails(
          email: "a@b.com",
          password: "onlyletterslong",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "1990-01-01",
          gender: .male
        )
      ),
      (
        "password",
        PersonalDetails(
          email: "a@b.com",
          password: "1234567890123",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "1990-01-01",
          gender: .male
        )
      ),
      (
        "password",
        PersonalDetails(
          email: "ada1234567@b.com",
          password: "ada1234567@b.com",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "1990-01-01",
          gender: .male
        )
      ),
      (
        "phone",
        PersonalDetails(
          email: "a@b.com",
          password: "abcdefgh12",
          firstName: "A",
          lastName: "B",
          phone: "+0123456789",
          birthDate: "1990-01-01",
          gender: .male
        )
      ),
      (
        "phone",
        PersonalDetails(
          email: "a@b.com",
          password: "abcdefgh12",
          firstName: "A",
          lastName: "B",
          phone: "+39abc",
          birthDate: "1990-01-01",
          gender: .male
        )
      ),
      (
        "birth_date",
        PersonalDetails(
          email: "a@b.com",
          password: "abcdefgh12",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "1990-02-30",
          gender: .male
        )
      ),
      (
        "birth_date",
        PersonalDetails(
          email: "a@b.com",
          password: "abcdefgh12",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "17/05/1990",
          gender: .male
        )
      ),
      (
        "birth_date",
        PersonalDetails(
          email: "a@b.com",
          password: "abcdefgh12",
          firstName: "A",
          lastName: "B",
          phone: "+393331234567",
          birthDate: "2027-01-15",
          gender: .male
        )
      ),
    ]
  )
  func malformed(field: String, details: PersonalDetails) async throws {
    let identity = try await TestIdentity()
    let error = await identityError { _ = try await identity.domain.register(details) }
    #expect(error?.fields == [field])
  }

  @Test("a wrong code is refused; too many wrong codes need a new one")
  func wrongCodes() async throws {
    let identity = try await TestIdentity()
    _ = try await identity.domain.register(TestIdentity.details(email: "ada@example.com"))
    let code = try await identity.latestCode(to: "ada@example.com")
    let wrong = code == "000000" ? "111111" : "000000"
    for _ in 0 ..< 5 {
      let error = await identityError { try await identity.domain.confirmEmail(email: "ada@example.com", code: wrong) }
      #expect(error?.fields == ["code"])
    }
    let locked = await identityError { try await identity.domain.confirmEmail(email: "ada@example.com", code: code) }
    #expect(locked?.code == "failedPrecondition")
    try await identity.domain.resendConfirmation(email: "ada@example.com")
    try await identity.domain.confirmEmail(email: "ada@example.com", code: try await identity.latestCode(to: "ada@example.com"))
  }

  @Test("a code expires after 24 hours")
  func expiry() async throws {
    let identity = try await TestIdentity()
    _ = try await identity.domain.register(TestIdentity.details(email: "ada@example.com"))
    let code = try await identity.latestCode(to: "ada@example.com")
    identity.clock.advance(by: 24 * 3600)
    let error = await identityError { try await identity.domain.confirmEmail(email: "ada@example.com", code: code) }
    #expect(error?.code == "failedPrecondition")
  }

  @Test("a resent code replaces the previous one")
  func resendReplaces() async throws {
    let identity = try await TestIdentity()
    _ = try await identity.domain.register(TestIdentity.details(email: "ada@example.com"))
    let first = try await identity.latestCode(to: "ada@example.com")
    identity.clock.advance(by: 1)
    try await identity.domain.resendConfirmation(email: "ada@example.com")
    let second = try await identity.latestCode(to: "ada@example.com")
    if first != second {
      let error = await identityError { try await identity.domain.confirmEmail(email: "ada@example.com", code: first) }
      #expect(error?.fields == ["code"])
    }
    try await identity.domain.confirmEmail(email: "ada@example.com", code: second)
  }

  @Test("resending to an unknown or confirmed address answers OK and sends nothing")
  func resendProbing() async throws {
    let identity = try await TestIdentity()
    try await identity.confirmedAccount("ada@example.com")
    let before = try await identity.store.outboxMessages(recipient: nil, limit: 100).count
    try await identity.domain.resendConfirmation(email: "nobody@example.com")
    try await identity.domain.resendConfirmation(email: "ada@example.com")
    #expect(try await identity.store.outboxMessages(recipient: nil, limit: 100).count == before)
    let bad = await identityError { try await identity.domain.resendConfirmation(email: "nope") }
    #expect(bad?.fields == ["email"])
  }

  @Test("confirming with a malformed code or address names the fields")
  func confirmValidation() async throws {
    let identity = try await TestIdentity()
    let error = await identityError { try await identity.domain.confirmEmail(email: "x", code: "12ab") }
    #expect(error?.fields == ["code", "email"])
  }
}
