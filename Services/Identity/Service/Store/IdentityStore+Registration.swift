import Foundation
import GRDB

extension IdentityStore {
  /// Stores `confirmation`, replacing the account's previous one.
  public func replaceConfirmation(_ confirmation: PendingConfirmation) async throws {
    try await pool.write { db in try Self.writeConfirmation(confirmation, db) }
  }

  /// The pending confirmation of `email` (normalized), if any.
  public func confirmation(email: String) async throws -> PendingConfirmation? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT account_id, email, code_hash, expires_at, failed_attempts
            FROM email_confirmation WHERE email = ?
            ORDER BY expires_at DESC LIMIT 1
            """
        ),
        arguments: [email]
      ).map(Self.confirmation(from:))
    }
  }

  public func recordWrongCode(accountID: String) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE email_confirmation SET failed_attempts = failed_attempts + 1 WHERE account_id = ?",
        arguments: [accountID]
      )
    }
  }

  /// Marks `email` confirmed for the account and forgets the confirmation: the account's own
  /// address becomes confirmed, or its pending address becomes its address. Whoever saved that
  /// address as a contact becomes the account's friend.
  /// - Throws: ``StoreConflict/emailTaken`` when, meanwhile, another account took the pending address.
  public func completeConfirmation(accountID: String, email: String, at now: Date) async throws {
    do {
      try await pool.write { db in
        try db.execute(
          sql: """
            UPDATE account SET
              email = CASE WHEN pending_email = ? THEN pending_email ELSE email END,
              pending_email = CASE WHEN pending_email = ? THEN NULL ELSE pending_email END,
              email_confirmed = 1
            WHERE id = ? AND (email = ? OR pending_email = ?)
            """,
          arguments: [email, email, accountID, email, email]
        )
        try db.execute(sql: "DELETE FROM email_confirmation WHERE account_id = ?", arguments: [accountID])
        try addressConfirmed(db, accountID: accountID, at: now)
      }
    } catch let error as DatabaseError where error.isUniqueViolation {
      throw StoreConflict.emailTaken
    }
  }

  static func writeConfirmation(_ confirmation: PendingConfirmation, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO email_confirmation (account_id, email, code_hash, expires_at, failed_attempts)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (account_id) DO UPDATE SET
          email = excluded.email, code_hash = excluded.code_hash,
          expires_at = excluded.expires_at, failed_attempts = excluded.failed_attempts
        """,
      arguments: [
        confirmation.accountID, confirmation.email, confirmation.codeHash, confirmation.expiresAt.storedValue,
        confirmation.failedAttempts,
      ]
    )
  }

  static func confirmation(from row: Row) -> PendingConfirmation {
    PendingConfirmation(
      accountID: row["account_id"],
      email: row["email"],
      codeHash: row["code_hash"],
      expiresAt: Date(stored: row["expires_at"]),
      failedAttempts: row["failed_attempts"]
    )
  }
}
