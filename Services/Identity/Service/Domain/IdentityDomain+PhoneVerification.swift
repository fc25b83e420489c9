import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Marks the caller's phone verified with the code texted to it.
  ///
  /// Codes are single-use and expire (``IdentityPolicy/phoneCodeLifetime``); wrong codes are
  /// throttled as failed sign-ins are (``LoginThrottle``, per account): `RESOURCE_EXHAUSTED` while
  /// locked.
  public func verifyPhone(userID: String, code rawCode: String) async throws -> Account {
    let account = try await callerAccount(userID)
    var check = InputValidation()
    let code = check.code(rawCode, field: "code", sentBy: "text message")
    try check.finish()
    if account.phone.isEmpty {
      throw ServiceError.failedPrecondition("your profile has no phone to verify; add one first")
    }
    if account.phoneVerified { return account }

    let now = clock.now()
    let throttleKey = Self.phoneCodeThrottleKey(accountID: account.id)
    let failures = try await store.loginFailures(email: throttleKey)
    if let lockedUntil = failures.lockedUntil, lockedUntil > now {
      throw ServiceError.throttled(until: lockedUntil, reason: "too many wrong codes")
    }
    guard let pending = try await store.phoneVerification(accountID: account.id), pending.phone == account.phone else {
      throw ServiceError.failedPrecondition("no code is waiting for \(account.phone); ask for a new one")
    }
    guard now < pending.expiresAt else {
      throw ServiceError.failedPrecondition("the code for \(account.phone) has expired; ask for a new one")
    }
    let given = SecretToken.hash(code, context: Self.phoneCodeContext(accountID: account.id, phone: account.phone))
    guard PasswordHasher.constantTimeEqual(Array(pending.codeHash.utf8), Array(given.utf8)) else {
      let throttle = policy.loginThrottle
      try await store.recordLoginFailure(email: throttleKey) { throttle.lock(afterFailures: $0, at: now) }
      throw ServiceError.invalid("code", "the code is wrong")
    }
    guard try await store.completePhoneVerification(pending, at: now) else {
      throw ServiceError.failedPrecondition("that code was replaced or used meanwhile; ask for a new one")
    }
    if failures.count > 0 { try await store.clearLoginFailures(email: throttleKey) }
    return try await callerAccount(userID)
  }

  /// Texts a new code to the caller's unverified phone (the previous one stops working). At most
  /// one per ``IdentityPolicy/phoneCodeResendInterval`` (`RESOURCE_EXHAUSTED` sooner).
  public func resendPhoneCode(userID: String) async throws {
    let account = try await callerAccount(userID)
    if account.phone.isEmpty {
      throw ServiceError.failedPrecondition("your profile has no phone to verify; add one first")
    }
    if account.phoneVerified {
      throw ServiceError.failedPrecondition("\(account.phone) is already verified")
    }
    let now = clock.now()
    if let pending = try await store.phoneVerification(accountID: account.id),
      now < pending.sentAt.addingTimeInterval(policy.phoneCodeResendInterval)
    {
      throw ServiceError.throttled(
        until: pending.sentAt.addingTimeInterval(policy.phoneCodeResendInterval),
        reason: "a code was sent to \(account.phone) moments ago"
      )
    }
    let code = SecretToken.newConfirmationCode()
    try await store.replacePhoneVerification(phoneVerification(code: code, for: account.id, phone: account.phone, now: now))
    try await textPhoneCode(code, to: account.phone, language: account.language)
  }

  // MARK: - Shared with registration and profile changes

  func phoneVerification(code: String, for accountID: String, phone: String, now: Date) -> PhoneVerification {
    PhoneVerification(
      accountID: accountID,
      phone: phone,
      codeHash: SecretToken.hash(code, context: Self.phoneCodeContext(accountID: accountID, phone: phone)),
      sentAt: now,
      expiresAt: now.addingTimeInterval(policy.phoneCodeLifetime)
    )
  }

  /// Texts `code` to `phone` through the SMS outbox.
  func textPhoneCode(_ code: String, to phone: String, language: Language) async throws {
    let minutes = Int(policy.phoneCodeLifetime / 60)
    try await messageSender.send(
      TextMessage(
        channel: .sms,
        to: phone,
        body: "Binario: your phone verification code is \(code). It is valid for \(minutes) minutes.",
        language: language
      )
    )
  }

  /// Wrong phone codes are counted in the sign-in failure table under this key, so they are
  /// throttled exactly as failed sign-ins are.
  static func phoneCodeThrottleKey(accountID: String) -> String {
    "phone-code:" + accountID
  }

  static func phoneCodeContext(accountID: String, phone: String) -> String {
    accountID + "\u{0}" + phone
  }
}
