import Foundation
import GRDB

/// A notification written with the change that caused it, sent once committed.
public struct OutboxMessage: Sendable, Hashable {
  /// Whom it is for: one user, or the admins on alert duty.
  public enum Audience: String, Sendable, Hashable {
    case user, admins
  }

  var seq: Int64 = 0
  /// Scheduling's dedupe key: a resend notifies nobody twice.
  public var dedupeKey: String
  public var audience: Audience
  /// The user (``Audience/user``); empty for the admins.
  public var userID: String
  public var title: String
  public var body: String
  public var data: [String: String]
  /// A driver's job updates go by push only, whatever their preferences (G5 D1).
  public var pushOnly: Bool

  public init(dedupeKey: String, audience: Audience, userID: String, title: String, body: String, data: [String: String], pushOnly: Bool = false) {
    self.dedupeKey = dedupeKey
    self.audience = audience
    self.userID = userID
    self.title = title
    self.body = body
    self.data = data
    self.pushOnly = pushOnly
  }
}

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
      arguments: [message.dedupeKey, message.audience.rawValue, message.userID, message.title, message.body, data, message.pushOnly]
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
          title: row["title"],
          body: row["body"],
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
