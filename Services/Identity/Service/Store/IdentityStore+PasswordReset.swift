import Foundation
import GRDB

/// What became of a password reset token.
public enum PasswordResetOutcome: Sendable, Hashable {
  /// The password was set; these sessions of the account were revoked.
  case reset(accountID: String, revokedSessions: [String])
  /// No such token, or it was used, or it expired.
  case invalid
}

extension IdentityStore {
  /// Records a reset token (by its hash) for the account.
  public func insertPasswordReset(tokenHash: String, accountID: String, at now: Date, expiresAt: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "INSERT INTO password_reset (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
        arguments: [tokenHash, accountID, now.storedValue, expiresAt.storedValue]
      )
    }
  }

  /// When the account's newest reset token was made, if it has one.
  public func latestPasswordReset(accountID: String) async throws -> Date? {
    try pool.readOnCurrentThread { db in
      try Double.fetchOne(
        db.cachedStatement(sql: "SELECT MAX(created_at) FROM password_reset WHERE account_id = ?"),
        arguments: [accountID]
      ).map(Date.init(stored:))
    }
  }

  /// The account an unused, unexpired token resets, if any.
  public func passwordResetAccount(tokenHash: String, at now: Date) async throws -> Account? {
    try pool.readOnCurrentThread { db in
      guard
        let accountID = try String.fetchOne(
          db.cachedStatement(sql: "SELECT account_id FROM password_reset WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?"),
          arguments: [tokenHash, now.storedValue]
        )
      else { return nil }
      return try Self.fetchAccount(db, where: "id = ?", accountID)
    }
  }

  /// In one transaction: uses up the token if it is unused and unexpired, sets the password hash,
  /// forgets the account's other reset tokens and its sign-in failures, and revokes all its
  /// sessions.
  public func resetPassword(tokenHash: String, newPasswordHash: String, at now: Date) async throws -> PasswordResetOutcome {
    try await pool.write { db in
      guard
        let accountID = try String.fetchOne(
          db.cachedStatement(sql: "SELECT account_id FROM password_reset WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?"),
          arguments: [tokenHash, now.storedValue]
        )
      else { return .invalid }
      try db.execute(
        sql: "UPDATE password_reset SET used_at = ? WHERE token_hash = ?",
        arguments: [now.storedValue, tokenHash]
      )
      try db.execute(
        sql: "DELETE FROM password_reset WHERE account_id = ? AND token_hash != ?",
        arguments: [accountID, tokenHash]
      )
      try db.execute(
        sql: "UPDATE account SET password_hash = ? WHERE id = ?",
        arguments: [newPasswordHash, accountID]
      )
      if let email = try String.fetchOne(db, sql: "SELECT email FROM account WHERE id = ?", arguments: [accountID]) {
        try db.execute(sql: "DELETE FROM login_failure WHERE email = ?", arguments: [Self.throttleKey(email)])
      }
      let revoked = try Self.revokeSessions(db, accountID: accountID, except: nil, at: now)
      return .reset(accountID: accountID, revokedSessions: revoked)
    }
  }
}
