import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

extension IdentityStore {
  /// Inserts `contact` unless one with its id exists already (a keyed write sent again).
  public func insertEmergencyContact(_ contact: EmergencyContact, accountID: String, at now: Date) async throws {
    try await pool.write { db in
      guard try !db.hasRow(in: "emergency_contact", id: contact.id) else { return }
      try db.execute(
        sql: "INSERT INTO emergency_contact (id, account_id, name, phone, channel, created_at, language) VALUES (?, ?, ?, ?, ?, ?, ?)",
        arguments: [contact.id, accountID, contact.name, contact.phone, contact.channel.rawValue, now.storedValue, contact.language?.rawValue ?? ""]
      )
    }
  }

  /// The account's contacts, oldest first.
  public func emergencyContacts(of accountID: String) async throws -> [EmergencyContact] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(sql: "SELECT id, name, phone, channel, language FROM emergency_contact WHERE account_id = ? ORDER BY created_at, rowid"),
        arguments: [accountID]
      ).map(Self.contact(from:))
    }
  }

  /// The contact, only if it belongs to `accountID`.
  public func emergencyContact(id: String, accountID: String) async throws -> EmergencyContact? {
    try pool.readOnCurrentThread { db in
      try Row.fetchOne(
        db.cachedStatement(sql: "SELECT id, name, phone, channel, language FROM emergency_contact WHERE id = ? AND account_id = ?"),
        arguments: [id, accountID]
      ).map(Self.contact(from:))
    }
  }

  /// Writes name, phone and channel of a contact of `accountID`. Returns whether it exists.
  public func updateEmergencyContact(_ contact: EmergencyContact, accountID: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE emergency_contact SET name = ?, phone = ?, channel = ?, language = ? WHERE id = ? AND account_id = ?",
        arguments: [contact.name, contact.phone, contact.channel.rawValue, contact.language?.rawValue ?? "", contact.id, accountID]
      )
      return db.changesCount > 0
    }
  }

  /// Removes a contact of `accountID`. Returns whether it existed.
  public func deleteEmergencyContact(id: String, accountID: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM emergency_contact WHERE id = ? AND account_id = ?", arguments: [id, accountID])
      return db.changesCount > 0
    }
  }

  static func contact(from row: Row) -> EmergencyContact {
    EmergencyContact(
      id: row["id"],
      name: row["name"],
      phone: row["phone"],
      channel: ContactChannel(rawValue: row["channel"]) ?? .sms,
      language: Language(rawValue: row["language"])
    )
  }
}
