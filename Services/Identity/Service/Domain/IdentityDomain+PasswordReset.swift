import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Emails a single-use link that sets a new password, if an account has `email`. Answers the
  /// same either way, so it cannot be used to probe for accounts; a second request within
  /// ``IdentityPolicy/passwordResetInterval`` sends nothing more.
  public func requestPasswordReset(email rawEmail: String) async throws {
    var check = InputValidation()
    let email = check.email(rawEmail, field: "email")
    try check.finish()
    guard let account = try await store.account(email: email) else { return }
    let now = clock.now()
    if let latest = try await store.latestPasswordReset(accountID: account.id),
      now < latest.addingTimeInterval(policy.passwordResetInterval)
    {
      return
    }
    let token = SecretToken.newResetToken()
    try await store.insertPasswordReset(
      tokenHash: SecretToken.hash(token, context: "password-reset"),
      accountID: account.id,
      at: now,
      expiresAt: now.addingTimeInterval(policy.passwordResetLifetime)
    )
    let minutes = Int(policy.passwordResetLifetime / 60)
    try await emailSender.send(
      Email(
        to: account.email,
        subject: "Reset your Binario password",
        body: """
          Hello \(account.firstName),

          to choose a new password, open this link within \(minutes) minutes:
          \(policy.passwordResetLink)?token=\(token)

          The link works once. Setting a new password signs you out everywhere.
          If you did not ask for it, ignore this message: your password stays as it is.
          """,
        language: account.language
      )
    )
  }

  /// Sets a new password with a reset token and ends every session of the account.
  /// `UNAUTHENTICATED` for an unknown, used or expired token.
  public func resetPassword(token rawToken: String, newPassword: String) async throws {
    let token = rawToken.trimmingCharacters(in: .whitespacesAndNewlines)
    let tokenHash = SecretToken.hash(token, context: "password-reset")
    let now = clock.now()
    let account = token.isEmpty ? nil : try await store.passwordResetAccount(tokenHash: tokenHash, at: now)
    var check = InputValidation()
    if token.isEmpty { check.fail("token", "the token from the reset link is required") }
    check.password(newPassword, field: "new_password", email: account?.email ?? "")
    try check.finish()
    guard account != nil else {
      throw ServiceError.unauthenticated("this reset link is not valid, was used, or has expired; ask for a new one")
    }
    let hash = await hasher.inBackground { $0.hash(newPassword) }
    let outcome = try await store.resetPassword(tokenHash: tokenHash, newPasswordHash: hash, at: now)
    switch outcome {
    case .invalid:
      throw ServiceError.unauthenticated("this reset link is not valid, was used, or has expired; ask for a new one")
    case .reset(_, let revoked):
      publishRevocation(revoked, at: now)
    }
  }
}
