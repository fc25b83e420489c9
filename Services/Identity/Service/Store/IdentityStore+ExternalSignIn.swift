import Foundation
import GRDB

extension IdentityStore {
  /// The account linked to `subject` at `provider`, if any.
  public func account(provider: String, subject: String) async throws -> Account? {
    try pool.readOnCurrentThread { db in
      guard
        let accountID = try String.fetchOne(
          db.cachedStatement(sql: "SELECT account_id FROM external_login WHERE provider = ? AND subject = ?"),
          arguments: [provider, subject]
        )
      else { return nil }
      return try Self.fetchAccount(db, where: "id = ?", accountID)
    }
  }

  /// Links an existing account to `login`'s provider subject. When the account's address was not
  /// confirmed, the provider's verified address confirms it, and any password set before that
  /// proof is cleared (whoever set it never showed they own the address).
  public func linkExternalLogin(_ login: ExternalLogin, confirmingUnconfirmedAddress: Bool) async throws {
    try await pool.write { db in
      try Self.writeExternalLogin(login, db)
      if confirmingUnconfirmedAddress {
        try db.execute(
          sql: "UPDATE account SET email_confirmed = 1, password_hash = '' WHERE id = ? AND email_confirmed = 0",
          arguments: [login.accountID]
        )
        try db.execute(sql: "DELETE FROM email_confirmation WHERE account_id = ?", arguments: [login.accountID])
        try addressConfirmed(db, accountID: login.accountID, at: login.createdAt)
      }
    }
  }

  static func writeExternalLogin(_ login: ExternalLogin, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO external_login (provider, subject, account_id, created_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (provider, subject) DO NOTHING
        """,
      arguments: [login.provider, login.subject, login.accountID, login.createdAt.storedValue]
    )
  }
}
