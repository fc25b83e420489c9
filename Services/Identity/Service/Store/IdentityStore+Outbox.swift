import Foundation
import GRDB

extension IdentityStore {
  /// Records a message a provider would deliver.
  public func insertOutboxMessage(_ message: OutboxMessage) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "INSERT INTO outbox (id, channel, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        arguments: [
          message.id, message.channel.rawValue, message.recipient, message.subject, message.body,
          message.createdAt.storedValue,
        ]
      )
    }
  }

  /// Recorded messages, newest first; only those to `recipient` when given.
  public func outboxMessages(recipient: String?, limit: Int) async throws -> [OutboxMessage] {
    try pool.readOnCurrentThread { db in
      let rows: [Row]
      if let recipient {
        rows = try Row.fetchAll(
          db.cachedStatement(
            sql: """
              SELECT id, channel, recipient, subject, body, created_at FROM outbox WHERE recipient = ?
              ORDER BY created_at DESC, rowid DESC LIMIT ?
              """
          ),
          arguments: [recipient, limit]
        )
      } else {
        rows = try Row.fetchAll(
          db.cachedStatement(
            sql: """
              SELECT id, channel, recipient, subject, body, created_at FROM outbox
              ORDER BY created_at DESC, rowid DESC LIMIT ?
              """
          ),
          arguments: [limit]
        )
      }
      return rows.map { row in
        OutboxMessage(
          id: row["id"],
          channel: OutboxChannel(rawValue: row["channel"]) ?? .email,
          recipient: row["recipient"],
          subject: row["subject"],
          body: row["body"],
          createdAt: Date(stored: row["created_at"])
        )
      }
    }
  }
}
