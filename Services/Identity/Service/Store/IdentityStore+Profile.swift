import BinarioAuth
import Foundation
import GRDB

extension IdentityStore {
  /// Writes the profile fields of `account` (names, phone and whether it is verified, birth
  /// date, gender); with `phoneVerification`, also stores that code (replacing any earlier one),
  /// and without it forgets any code waiting for a phone the account no longer has.
  public func updateProfile(_ account: Account, phoneVerification: PhoneVerification? = nil, at now: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          UPDATE account SET first_name = ?, last_name = ?, phone = ?, phone_verified = ?, birth_date = ?, gender = ?,
            language = ?
          WHERE id = ?
          """,
        arguments: [
          account.firstName, account.lastName, account.phone, account.phoneVerified, account.birthDate,
          account.gender?.rawValue, account.language.rawValue, account.id,
        ]
      )
      if let phoneVerification {
        try Self.writePhoneVerification(phoneVerification, db)
      } else {
        try db.execute(
          sql: "DELETE FROM phone_verification WHERE account_id = ? AND phone != ?",
          arguments: [account.id, account.phone]
        )
      }
      try recordAccountProfileChanged(account.id, at: now, db)
    }
  }

  public func setPasswordHash(_ hash: String, accountID: String) async throws {
    try await pool.write { db in
      try db.execute(sql: "UPDATE account SET password_hash = ? WHERE id = ?", arguments: [hash, accountID])
    }
  }

  /// Sets the address waiting for confirmation and its confirmation, in one transaction.
  public func setPendingEmail(_ email: String, accountID: String, confirmation: PendingConfirmation) async throws {
    try await pool.write { db in
      try db.execute(sql: "UPDATE account SET pending_email = ? WHERE id = ?", arguments: [email, accountID])
      try Self.writeConfirmation(confirmation, db)
    }
  }

  /// Deletes the account and everything personal about it: its rows in every table (by cascade),
  /// outbox messages addressed to its addresses, and its sign-in failures. Its open sessions are
  /// recorded as revoked at `now` first.
  /// With `audit` (an admin deleting it), records it in the same transaction. Other services
  /// hear of it through `AccountDeleted`, recorded in the same transaction too.
  /// - Returns: The sessions revoked.
  public func deleteAccount(id: String, at now: Date, audit: AuditEntry? = nil) async throws -> [String] {
    try await pool.write { db in
      guard let account = try Self.fetchAccount(db, where: "id = ?", id) else { return [] }
      if let audit { try Self.writeAuditEntry(audit, db) }
      let revoked = try Self.revokeSessions(db, accountID: id, except: nil, at: now)
      let addresses = [account.email, account.pendingEmail].compactMap { $0 }
      for address in addresses {
        try db.execute(sql: "DELETE FROM outbox WHERE recipient = ?", arguments: [address])
        try db.execute(sql: "DELETE FROM login_failure WHERE email = ?", arguments: [Self.throttleKey(address)])
      }
      if !account.phone.isEmpty {
        try db.execute(sql: "DELETE FROM outbox WHERE recipient = ?", arguments: [account.phone])
      }
      try db.execute(
        sql: "DELETE FROM login_failure WHERE email = ?",
        arguments: [Self.throttleKey(IdentityDomain.phoneCodeThrottleKey(accountID: id))]
      )
      try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [id])
      try recordAccountDeleted(account, byAdmin: audit != nil, at: now, db)
      return revoked
    }
  }
}
