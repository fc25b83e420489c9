import Foundation
import GRDB

extension IdentityStore {
  public func insertAuditEntry(_ entry: AuditEntry) async throws {
    try await pool.write { db in try Self.writeAuditEntry(entry, db) }
  }

  /// Entries newest first, optionally only those about one account.
  public func auditEntries(targetID: String?, limit: Int) async throws -> [AuditEntry] {
    try pool.readOnCurrentThread { db in
      let filter = targetID == nil ? "" : "WHERE target_id = ?"
      return try Row.fetchAll(
        db,
        sql: """
          SELECT id, actor_id, actor_email, action, target_id, target_email, detail, at
          FROM audit_entry \(filter) ORDER BY at DESC, rowid DESC LIMIT ?
          """,
        arguments: targetID.map { [$0, limit] as StatementArguments } ?? [limit]
      ).compactMap { row in
        AuditEntry.Action(rawValue: row["action"]).map {
          AuditEntry(
            id: row["id"],
            actorID: row["actor_id"],
            actorEmail: row["actor_email"],
            action: $0,
            targetID: row["target_id"],
            targetEmail: row["target_email"],
            detail: row["detail"],
            at: Date(stored: row["at"])
          )
        }
      }
    }
  }

  static func writeAuditEntry(_ entry: AuditEntry, _ db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO audit_entry (id, actor_id, actor_email, action, target_id, target_email, detail, at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        entry.id, entry.actorID, entry.actorEmail, entry.action.rawValue, entry.targetID, entry.targetEmail,
        entry.detail, entry.at.storedValue,
      ]
    )
  }
}
