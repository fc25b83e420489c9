import Foundation
import GRDB

extension IdentityStore {
  /// Stores `verification`, replacing the account's previous code.
  public func replacePhoneVerification(_ verification: PhoneVerification) async throws {
    try await pool.write { db in try Self.writePhoneVerification(verification, db) }
  }

  /// The code waiting to verify the account's phone, if any.
  public func phoneVerification(accountID: String) async throws -> PhoneVerification? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(
        db.cachedStatement(sql: "SELECT account_id, phone, code_hash, sent_at, expires_at FROM phone_verification WHERE account_id = ?"),
        arguments: [accountID]
      ).map {
        PhoneVerification(
          accountID: $0["account_id"],
          phone: $0["phone"],
          codeHash: $0["code_hash"],
          sentAt: Date(stored: $0["sent_at"]),
          expiresAt: Date(stored: $0["expires_at"])
        )
      }
    }
  }

  /// Marks the phone verified and uses up its code, in one transaction, if the account still has
  /// that phone and that code.
  /// - Returns: Whether it did (`false`: the code was used or replaced meanwhile).
  public func completePhoneVerification(_ verification: PhoneVerification, at now: Date) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: "DELETE FROM phone_verification WHERE account_id = ? AND code_hash = ?",
        arguments: [verification.accountID, verification.codeHash]
      )
      guard db.changesCount == 1 else { return false }
      try db.execute(
        sql: "UPDATE account SET phone_verified = 1 WHERE id = ? AND phone = ?",
        arguments: [verification.accountID, verification.phone]
      )
      guard db.changesCount == 1 else { return false }
      try recordAccountProfileChanged(verification.accountID, at: now, db)
      return true
    }
  }

  static func writePhoneVerification(_ verification: PhoneVerification, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO phone_verification (account_id, phone, code_hash, sent_at, expires_at)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (account_id) DO UPDATE SET
          phone = excluded.phone, code_hash = excluded.code_hash,
          sent_at = excluded.sent_at, expires_at = excluded.expires_at
        """,
      arguments: [
        verification.accountID, verification.phone, verification.codeHash, verification.sentAt.storedValue,
        verification.expiresAt.storedValue,
      ]
    )
  }
}
