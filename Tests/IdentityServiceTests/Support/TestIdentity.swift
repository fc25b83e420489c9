import BinarioAuth
import BinarioDomain
import BinarioStorage
import Foundation
import IdentityService
import Testing

/// A fresh identity for one test: a temporary database, a manual clock, cheap scrypt.
struct TestIdentity {
  let database: TemporaryDatabase
  let store: IdentityStore
  let clock: ManualClock
  let domain: IdentityDomain

  init(policy: IdentityPolicy = .forTests, googleSignIn: (any ExternalIdentityVerifier)? = nil) async throws {
    self.database = try TemporaryDatabase(migrations: IdentityMigrations.all)
    self.store = IdentityStore(pool: database.pool)
    self.clock = ManualClock()
    self.domain = try await IdentityDomain.start(store: store, clock: clock, policy: policy, googleSignIn: googleSignIn)
  }

  static let password = "correct horse 42"

  static func details(
    email: String,
    password: String = TestIdentity.password,
    firstName: String = "Ada",
    lastName: String = "Lovelace",
    language: String = "en"
  ) -> PersonalDetails {
    PersonalDetails(
      email: email,
      password: password,
      firstName: firstName,
      lastName: lastName,
      phone: "+393331234567",
      birthDate: "1990-05-17",
      gender: .female,
      language: language
    )
  }

  /// The confirmation code most recently emailed to `email`, read from the outbox.
  func latestCode(to email: String) async throws -> String {
    let messages = try await store.outboxMessages(recipient: email, limit: 1)
    let message = try #require(messages.first, "no email to \(email) in the outbox")
    let code = try #require(
      message.subject.split(separator: " ").last.map(String.init),
      "no code in \(message.subject)"
    )
    #expect(message.body.contains(code))
    return code
  }

  /// The newest message the outbox holds for `recipient` (an address or a phone).
  func latestMessage(to recipient: String) async throws -> OutboxMessage {
    let messages = try await store.outboxMessages(recipient: recipient, limit: 1)
    return try #require(messages.first, "no message to \(recipient) in the outbox")
  }

  /// The 6-digit code in the newest text message to `phone`.
  func latestPhoneCode(to phone: String) async throws -> String {
    let message = try await latestMessage(to: phone)
    #expect(message.channel == .sms)
    let words = message.body.split(whereSeparator: { !$0.isNumber })
    return try #require(words.first(where: { $0.count == 6 }).map(String.init), "no code in \(message.body)")
  }

  /// Registers and confirms an account; returns it.
  @discardableResult
  func confirmedAccount(_ email: String, firstName: String = "Ada", lastName: String = "Lovelace", language: String = "en") async throws -> Account {
    let account = try await domain.register(Self.details(email: email, firstName: firstName, lastName: lastName, language: language))
    try await domain.confirmEmail(email: email, code: try await latestCode(to: email))
    return try await domain.me(userID: account.id)
  }

  /// A confirmed account, signed in.
  func signedIn(_ email: String, firstName: String = "Ada") async throws -> TokenPair {
    try await confirmedAccount(email, firstName: firstName)
    return try await domain.login(email: email, password: Self.password)
  }
}

/// The error `body` throws, as an ``ServiceError``; records an issue if it throws none or another.
func identityError(_ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> ServiceError? {
  do {
    try await body()
    Issue.record("expected an ServiceError, got success", sourceLocation: sourceLocation)
  } catch let error as ServiceError {
    return error
  } catch {
    Issue.record("expected an ServiceError, got \(error)", sourceLocation: sourceLocation)
  }
  return nil
}

extension ServiceError {
  /// The fields named by `.invalid`, sorted.
  var fields: [String] {
    if case .invalid(let problems) = self { return problems.map(\.field).sorted() }
    return []
  }

  var code: String {
    switch self {
    case .invalid: return "invalid"
    case .alreadyExists: return "alreadyExists"
    case .notFound: return "notFound"
    case .unauthenticated: return "unauthenticated"
    case .failedPrecondition: return "failedPrecondition"
    case .permissionDenied: return "permissionDenied"
    case .throttled: return "throttled"
    case .storageFull: return "storageFull"
    }
  }
}
