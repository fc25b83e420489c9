import Foundation
import GRDB

extension IdentityStore {
  /// Saves a contact pending registration.
  /// - Throws: ``StoreConflict/duplicate`` when the account already saved that address.
  public func insertPendingContact(_ contact: PendingContact, accountID: String) async throws {
    do {
      try await pool.write { db in
        try db.execute(
          sql: "INSERT INTO pending_contact (id, account_id, name, email, created_at) VALUES (?, ?, ?, ?, ?)",
          arguments: [contact.id, accountID, contact.name, contact.email, contact.createdAt.storedValue]
        )
      }
    } catch let error as DatabaseError where error.isUniqueViolation {
      throw StoreConflict.duplicate
    }
  }

  public func pendingContactCount(accountID: String) async throws -> Int {
    try pool.readOnCurrentThread { db in
      try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM pending_contact WHERE account_id = ?"), arguments: [accountID]) ?? 0
    }
  }

  /// The account's contacts pending registration, by name.
  public func pendingContacts(accountID: String) async throws -> [PendingContact] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT id, name, email, created_at FROM pending_contact WHERE account_id = ?
            ORDER BY name COLLATE NOCASE, email
            """
        ),
        arguments: [accountID]
      ).map { PendingContact(id: $0["id"], name: $0["name"], email: $0["email"], createdAt: Date(stored: $0["created_at"])) }
    }
  }

  /// Whether the account saved `email` (normalized) as a contact pending registration.
  public func hasPendingContact(accountID: String, email: String) async throws -> Bool {
    try pool.readOnCurrentThread { db in
      try Bool.fetchOne(
        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM pending_contact WHERE account_id = ? AND email = ?)"),
        arguments: [accountID, email]
      ) ?? false
    }
  }

  /// Removes a contact of the account. Returns whether it had that contact.
  public func removePendingContact(id: String, accountID: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM pending_contact WHERE id = ? AND account_id = ?", arguments: [id, accountID])
      return db.changesCount == 1
    }
  }

  /// The account's address was just confirmed: records `AddressConfirmed`, and turns every
  /// contact saved with that address into a friendship (`FriendshipStarted` for each).
  func addressConfirmed(_ db: Database, accountID: String, at now: Date) throws {
    guard let email = try String.fetchOne(db.cachedStatement(sql: "SELECT email FROM account WHERE id = ?"), arguments: [accountID])
    else { return }
    try recordAddressConfirmed(accountID, email: email, at: now, db)
    let savers = try String.fetchAll(
      db.cachedStatement(sql: "SELECT account_id FROM pending_contact WHERE email = ? AND account_id != ?"),
      arguments: [email, accountID]
    )
    for saver in savers {
      try befriend(saver, accountID, at: now, db)
      try db.execute(
        sql: """
          DELETE FROM friend_request
          WHERE (from_account_id = ? AND to_account_id = ?) OR (from_account_id = ? AND to_account_id = ?)
          """,
        arguments: [saver, accountID, accountID, saver]
      )
    }
    try db.execute(sql: "DELETE FROM pending_contact WHERE email = ?", arguments: [email])
  }

  /// Makes `a` and `b` friends both ways, recording `FriendshipStarted` unless they already were.
  func befriend(_ a: String, _ b: String, at now: Date, _ db: Database) throws {
    var started = false
    for (account, friend) in [(a, b), (b, a)] {
      try db.execute(
        sql: "INSERT OR IGNORE INTO friendship (account_id, friend_id, created_at) VALUES (?, ?, ?)",
        arguments: [account, friend, now.storedValue]
      )
      started = started || db.changesCount > 0
    }
    if started { try recordFriendshipStarted(a, b, at: now, db) }
  }
}
