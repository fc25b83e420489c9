import BinarioAuth
import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Signs in with an address and password: a new session and its first token pair.
  ///
  /// A wrong password and an unknown address give the same `UNAUTHENTICATED` after the same work
  /// (a hash against a dummy for an unknown address). An unconfirmed address gives
  /// `FAILED_PRECONDITION` (only with the right password). Repeated failures lock the address
  /// (``LoginThrottle``): `RESOURCE_EXHAUSTED` until the lock ends. A disabled account gives
  /// `PERMISSION_DENIED` (only with the right password).
  public func login(email rawEmail: String, password: String) async throws -> TokenPair {
    var check = InputValidation()
    let email = InputValidation.normalizedEmail(rawEmail)
    if email.isEmpty { check.fail("email", "an email address is required") }
    if password.isEmpty { check.fail("password", "a password is required") }
    try check.finish()

    let now = clock.now()
    let account = try await checkPassword(password, email: email, now: now)
    try refuseIfDisabled(account)
    guard account.emailConfirmed else {
      throw ServiceError.failedPrecondition(
        "confirm your address first: enter the code sent to \(account.email), or ask for a new one"
      )
    }
    return try await openSession(for: account, now: now)
  }

  /// Trades a refresh token for a new pair. A token presented a second time ends its whole
  /// session (someone holds a copy), unless its first answer was evidently lost
  /// (``IdentityPolicy/refreshReplayGrace``).
  public func refresh(refreshToken: String) async throws -> TokenPair {
    let token = refreshToken.trimmingCharacters(in: .whitespaces)
    guard !token.isEmpty else { throw ServiceError.invalid("refresh_token", "a refresh token is required") }
    let now = clock.now()
    let newToken = SecretToken.newRefreshToken()
    let newExpiry = now.addingTimeInterval(policy.refreshTokenLifetime)
    let outcome = try await store.rotateRefreshToken(
      oldHash: SecretToken.hash(token),
      newHash: SecretToken.hash(newToken),
      newExpiresAt: newExpiry,
      replayGrace: policy.refreshReplayGrace,
      at: now
    )
    switch outcome {
    case .rotated(let accountID, let sessionID):
      guard let account = try await store.account(id: accountID) else {
        throw ServiceError.unauthenticated("your account no longer exists")
      }
      if account.disabled {
        // Disabling ends every session, so only a refresh racing it lands here.
        if try await store.revokeSession(id: sessionID, accountID: accountID, at: now) {
          publishRevocation([sessionID], at: now)
        }
        throw ServiceError.unauthenticated("this account has been disabled by an administrator")
      }
      return try issueTokens(
        for: account,
        sessionID: sessionID,
        refreshToken: newToken,
        refreshTokenExpiresAt: newExpiry,
        now: now
      )
    case .reused(let accountID, let sessionID):
      if try await store.revokeSession(id: sessionID, accountID: accountID, at: now) {
        publishRevocation([sessionID], at: now)
      }
      throw ServiceError.unauthenticated(
        "this refresh token was already used, so its session has been ended for safety; sign in again"
      )
    case .expired:
      throw ServiceError.unauthenticated("the refresh token has expired; sign in again")
    case .revoked:
      throw ServiceError.unauthenticated("this session has ended; sign in again")
    case .unknown:
      throw ServiceError.unauthenticated("the refresh token is not valid; sign in again")
    }
  }

  /// Ends the caller's session `sessionID`: its access tokens are refused from now on.
  public func logout(userID: String, sessionID: String) async throws {
    let now = clock.now()
    if try await store.revokeSession(id: sessionID, accountID: userID, at: now) {
      publishRevocation([sessionID], at: now)
    }
  }

  // MARK: - Shared

  /// Checks `password` for the account at `email`, throttled by address. Returns the account.
  ///
  /// - Parameter wrongPassword: The error for a wrong password or unknown address.
  func checkPassword(
    _ password: String,
    email: String,
    now: Date,
    wrongPassword: ServiceError = .unauthenticated("wrong email or password")
  ) async throws -> Account {
    let failures = try await store.loginFailures(email: email)
    if let lockedUntil = failures.lockedUntil, lockedUntil > now {
      throw ServiceError.throttled(until: lockedUntil)
    }
    let credentials = try await store.credentials(email: email)
    // An account that signs in only with an external provider has no hash: it gets the same
    // work and the same answer as an unknown address.
    let storedHash = credentials.flatMap { $0.passwordHash.isEmpty ? nil : $0.passwordHash }
    let matches = await hasher.inBackground { hasher in
      storedHash.map { hasher.verify(password, against: $0) } ?? hasher.verifyAgainstNothing(password)
    }
    guard matches, let credentials, storedHash != nil else {
      let throttle = policy.loginThrottle
      try await store.recordLoginFailure(email: email) { throttle.lock(afterFailures: $0, at: now) }
      throw wrongPassword
    }
    if failures.count > 0 {
      try await store.clearLoginFailures(email: email)
    }
    if hasher.needsRehash(credentials.passwordHash) {
      try await store.setPasswordHash(await hasher.inBackground { $0.hash(password) }, accountID: credentials.account.id)
    }
    return credentials.account
  }

  /// `PERMISSION_DENIED` for a disabled account.
  func refuseIfDisabled(_ account: Account) throws(ServiceError) {
    if account.disabled {
      throw .permissionDenied("this account has been disabled by an administrator; contact support")
    }
  }

  /// A new session for `account` with its first token pair.
  func openSession(for account: Account, now: Date) async throws -> TokenPair {
    let sessionID = Self.newID()
    let refreshToken = SecretToken.newRefreshToken()
    let refreshExpiry = now.addingTimeInterval(policy.refreshTokenLifetime)
    try await store.createSession(
      id: sessionID,
      accountID: account.id,
      refreshTokenHash: SecretToken.hash(refreshToken),
      refreshTokenExpiresAt: refreshExpiry,
      at: now
    )
    return try issueTokens(
      for: account,
      sessionID: sessionID,
      refreshToken: refreshToken,
      refreshTokenExpiresAt: refreshExpiry,
      now: now
    )
  }

  func issueTokens(
    for account: Account,
    sessionID: String,
    refreshToken: String,
    refreshTokenExpiresAt: Date,
    now: Date
  ) throws -> TokenPair {
    let claims = AccessTokenClaims(
      userID: account.id,
      roles: account.roles.sorted().map(\.rawValue),
      sessionID: sessionID,
      tokenID: Self.newID(),
      issuedAt: now,
      expiresAt: now.addingTimeInterval(policy.accessTokenLifetime)
    )
    return TokenPair(
      accessToken: try signer.sign(claims),
      accessTokenExpiresAt: claims.exp.value,
      refreshToken: refreshToken,
      refreshTokenExpiresAt: refreshTokenExpiresAt,
      userID: account.id,
      sessionID: sessionID,
      roles: account.roles
    )
  }
}
