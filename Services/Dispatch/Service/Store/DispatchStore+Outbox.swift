import BinarioDomain
import Foundation
import GRDB

extension DispatchTransaction {
  /// Queues a notification (once per dedupe key).
  public func enqueue(_ message: OutboxMessage) throws {
    enqueued = true
    let data = String(decoding: try JSONSerialization.data(withJSONObject: message.data, options: [.sortedKeys]), as: UTF8.self)
    try db.executeCached(
      sql: """
        INSERT INTO outbox (dedupe_key, audience, user_id, title, body, data, push_only) VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (dedupe_key) DO NOTHING
        """,
      arguments: [message.dedupeKey, message.audience.rawValue, message.userID, message.title.stored, message.body.stored, data, message.pushOnly]
    )
  }
}

extension DispatchStore {
  /// The oldest queued notifications.
  public func outbox(limit: Int) async throws -> [OutboxMessage] {
    try await pool.read { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM outbox ORDER BY seq LIMIT ?"), arguments: [limit]).map { row in
        let json = (row["data"] as String).data(using: .utf8) ?? Data()
        var message = OutboxMessage(
          dedupeKey: row["dedupe_key"],
          audience: OutboxMessage.Audience(rawValue: row["audience"]) ?? .admins,
          userID: row["user_id"],
          title: TranslatedText(stored: row["title"]),
          body: TranslatedText(stored: row["body"]),
          data: (try? JSONSerialization.jsonObject(with: json)) as? [String: String] ?? [:],
          pushOnly: row["push_only"]
        )
        message.seq = row["seq"]
        return message
      }
    }
  }

  /// Forgets a sent notification.
  public func removeFromOutbox(_ message: OutboxMessage) async throws {
    try await pool.write { db in try db.execute(sql: "DELETE FROM outbox WHERE seq = ?", arguments: [message.seq]) }
  }
}
