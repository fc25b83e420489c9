import BinarioAuth
import BinarioDomain
import BinarioPayments
import Foundation

/// Identity's domain logic: accounts, sign-in (password, reset, Google) and sessions, profiles
/// and phone verification, roles, friends and contacts, emergency contacts, payment methods,
/// administration and signing keys. Pure Swift: it knows neither gRPC nor SQL. It reads the time only
/// from its ``DomainClock``, keeps data through ``IdentityStore``, and sends messages through
/// the ``EmailSender`` and ``OutboxMessageSender`` it is given.
///
/// The operations live in extensions, one file per area (`IdentityDomain+Registration.swift`,
/// `+SignIn`, `+PasswordReset`, `+ExternalSignIn`, `+Profile`, `+PhoneVerification`, `+Friends`,
/// `+Contacts`, `+EmergencyContacts`, `+PaymentMethods`, `+Administration`, `+ServiceLookups`,
/// `+Revocations`).
/// They throw ``ServiceError`` for anything a caller did wrong; any other error is a fault.
public final class IdentityDomain: Sendable {
  let store: IdentityStore
  let clock: any DomainClock
  let policy: IdentityPolicy
  let hasher: PasswordHasher
  let emailSender: any EmailSender
  let messageSender: any OutboxMessageSender
  /// Tokenises cards for ``addPaymentMethod(userID:card:makeDefault:)``.
  let paymentProvider: any PaymentProvider
  /// Checks Google ID tokens; `nil` when Google sign-in is not configured.
  let googleSignIn: (any ExternalIdentityVerifier)?
  /// Every revocation is published here for `WatchRevocations`.
  public let revocations: RevocationBroadcaster
  /// Every key, oldest first; the newest signs.
  let signingKeys: [SigningKey]
  let signer: AccessTokenSigner

  /// Loads the signing keys, creating the first key pair if the database has none.
  ///
  /// - Parameters:
  ///   - emailSender: By default ``OutboxEmailSender`` on `store`.
  ///   - messageSender: By default ``OutboxTextMessageSender`` on `store`.
  ///   - paymentProvider: By default ``BinarioPayments/TestPaymentProvider``.
  ///   - googleSignIn: Google sign-in, if configured.
  public static func start(
    store: IdentityStore,
    clock: any DomainClock = SystemClock(),
    policy: IdentityPolicy = IdentityPolicy(),
    emailSender: (any EmailSender)? = nil,
    messageSender: (any OutboxMessageSender)? = nil,
    paymentProvider: any PaymentProvider = TestPaymentProvider(),
    googleSignIn: (any ExternalIdentityVerifier)? = nil
  ) async throws -> IdentityDomain {
    let now = clock.now()
    let keys = try await store.signingKeysCreatingFirst { SigningKey.generate(at: now) }
    return IdentityDomain(
      store: store,
      clock: clock,
      policy: policy,
      emailSender: emailSender ?? OutboxEmailSender(store: store, clock: clock),
      messageSender: messageSender ?? OutboxTextMessageSender(store: store, clock: clock),
      paymentProvider: paymentProvider,
      googleSignIn: googleSignIn,
      signingKeys: keys
    )
  }

  private init(
    store: IdentityStore,
    clock: any DomainClock,
    policy: IdentityPolicy,
    emailSender: any EmailSender,
    messageSender: any OutboxMessageSender,
    paymentProvider: any PaymentProvider,
    googleSignIn: (any ExternalIdentityVerifier)?,
    signingKeys: [SigningKey]
  ) {
    precondition(!signingKeys.isEmpty, "identity needs a signing key")
    self.store = store
    self.clock = clock
    self.policy = policy
    self.hasher = PasswordHasher(parameters: policy.scrypt)
    self.emailSender = emailSender
    self.messageSender = messageSender
    self.paymentProvider = paymentProvider
    self.googleSignIn = googleSignIn
    self.revocations = RevocationBroadcaster()
    self.signingKeys = signingKeys
    let current = signingKeys[signingKeys.count - 1]
    self.signer = AccessTokenSigner(keyID: current.id, privateKey: current.privateKey)
  }

  /// The public keys that verify access tokens.
  public var publishedSigningKeys: [PublishedSigningKey] {
    signingKeys.map {
      PublishedSigningKey(id: $0.id, algorithm: "EdDSA", publicKey: $0.publicKey, createdAt: $0.createdAt)
    }
  }

  /// A verifier for the tokens this identity issues, on its clock (for tests and in-process use).
  public var accessTokenVerifier: AccessTokenVerifier {
    let clock = self.clock
    return AccessTokenVerifier(
      keys: Dictionary(uniqueKeysWithValues: signingKeys.map { ($0.id, $0.privateKey.publicKey) }),
      now: { clock.now() }
    )
  }

  /// The signed-in caller's account; `UNAUTHENTICATED` if it no longer exists or has been
  /// disabled. (Disabling also revokes the account's sessions, which the gateway learns from the
  /// revocation feed; this check makes the refusal immediate even before the feed arrives.)
  func callerAccount(_ userID: String) async throws -> Account {
    guard let account = try await store.account(id: userID) else {
      throw ServiceError.unauthenticated("your account no longer exists")
    }
    if account.disabled {
      throw ServiceError.unauthenticated("this account has been disabled by an administrator")
    }
    return account
  }

  /// Records that `sessionIDs` ended now and tells the watchers.
  func publishRevocation(_ sessionIDs: [String], at now: Date) {
    revocations.publish(SessionRevocation(sessionIDs: sessionIDs, revokedAt: now))
  }

  /// A trimmed, non-empty id, or `INVALID_ARGUMENT` naming `field`.
  static func requiredID(_ raw: String, field: String, what: String) throws(ServiceError) -> String {
    let id = raw.trimmingCharacters(in: .whitespaces)
    guard !id.isEmpty else { throw .invalid(field, "\(what) is required") }
    return id
  }

  static func newID() -> String {
    UUID().uuidString.lowercased()
  }
}
