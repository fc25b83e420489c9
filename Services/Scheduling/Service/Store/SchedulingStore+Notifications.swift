import BinarioDomain
import Foundation
import GRDB

extension SchedulingStore {
  /// Notifies `userIDs` once per `dedupeKey`: returns how many were notified, or `nil` when the
  /// key was used before (nothing is written). `onCommitted` gets the new notifications after
  /// the commit, in commit order.
  public func notify(
    userIDs: [String],
    content: NotificationContent,
    dedupeKey: String,
    pushOnly: Bool,
    at now: Date,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> Int? {
    try await pool.write { db in
      if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM notify_request WHERE dedupe_key = ?)"), arguments: [dedupeKey])
        == true
      {
        return nil
      }
      let made = try Self.insertNotifications(db, userIDs: userIDs, content: content, pushOnly: pushOnly, at: now)
      try db.execute(
        sql: "INSERT INTO notify_request (dedupe_key, notified, created_at) VALUES (?, ?, ?)",
        arguments: [dedupeKey, made.count, now.timeIntervalSince1970]
      )
      Self.publish(made, from: db, to: onCommitted)
      return made.count
    }
  }

  /// Inserts one notification per recipient, in the order given.
  static func insertNotifications(
    _ db: Database,
    userIDs: [String],
    content: NotificationContent,
    pushOnly: Bool,
    at now: Date
  ) throws -> [UserNotification] {
    // Encoded once for every user: each is a JSON encoding.
    let data = try Self.encodedData(content.data)
    let (title, body) = (content.title.stored, content.body.stored)
    let insert = try db.cachedStatement(
      sql: """
        INSERT INTO notification (id, user_id, kind, title, body, data, created_at, push_only)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    )
    var made: [UserNotification] = []
    made.reserveCapacity(userIDs.count)
    for userID in userIDs {
      let id = UUID().uuidString.lowercased()
      try insert.execute(arguments: [
        id, userID, content.kind.rawValue, title, body, data, now.timeIntervalSince1970, pushOnly,
      ])
      made.append(
        UserNotification(
          id: id,
          sequence: db.lastInsertedRowID,
          userID: userID,
          content: content,
          createdAt: now,
          read: false,
          pushOnly: pushOnly
        )
      )
    }
    return made
  }

  /// Hands `notifications` to `onCommitted` once the transaction under way commits. GRDB runs it
  /// on the writer, one transaction after another: in commit order.
  static func publish(
    _ notifications: [UserNotification],
    from db: Database,
    to onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) {
    guard !notifications.isEmpty else { return }
    db.afterNextTransaction(onCommit: { _ in onCommitted(notifications) })
  }

  /// A page of the user's inbox, newest first, from before `before` (a sequence).
  public func inbox(userID: String, before: Int64?, limit: Int, unreadOnly: Bool) throws -> InboxPage {
    try pool.read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT seq, id, user_id, kind, title, body, data, created_at, read_at, push_only FROM notification
          WHERE user_id = ? AND seq < ? \(unreadOnly ? "AND read_at IS NULL" : "")
          ORDER BY seq DESC LIMIT ?
          """,
        arguments: [userID, before ?? Int64.max, limit + 1]
      )
      let notifications = try rows.prefix(limit).map(Self.notification)
      let unread =
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM notification WHERE user_id = ? AND read_at IS NULL"), arguments: [userID]) ?? 0
      return InboxPage(
        notifications: notifications,
        nextBefore: rows.count > limit ? notifications.last?.sequence : nil,
        unreadCount: unread
      )
    }
  }

  /// The user's notifications made after `sequence`, oldest first.
  public func notifications(userID: String, after sequence: Int64) throws -> [UserNotification] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT seq, id, user_id, kind, title, body, data, created_at, read_at, push_only FROM notification
            WHERE user_id = ? AND seq > ? ORDER BY seq
            """
        ),
        arguments: [userID, sequence]
      ).map(Self.notification)
    }
  }

  /// Marks the named notifications of the user read (`nil`: all); returns how many changed and
  /// how many stay unread.
  public func markRead(userID: String, ids: [String]?, at now: Date) async throws -> (marked: Int, unread: Int) {
    try await pool.write { db in
      var marked = 0
      if let ids {
        let update = try db.cachedStatement(
          sql: "UPDATE notification SET read_at = ? WHERE user_id = ? AND id = ? AND read_at IS NULL"
        )
        for id in ids {
          try update.execute(arguments: [now.timeIntervalSince1970, userID, id])
          marked += db.changesCount
        }
      } else {
        try db.execute(
          sql: "UPDATE notification SET read_at = ? WHERE user_id = ? AND read_at IS NULL",
          arguments: [now.timeIntervalSince1970, userID]
        )
        marked = db.changesCount
      }
      let unread =
        try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM notification WHERE user_id = ? AND read_at IS NULL"), arguments: [userID]) ?? 0
      return (marked, unread)
    }
  }

  /// Up to `limit` notifications not yet sent out on their channels, oldest first.
  public func undeliveredNotifications(limit: Int) throws -> [UserNotification] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT seq, id, user_id, kind, title, body, data, created_at, read_at, push_only FROM notification
            WHERE delivered = 0 ORDER BY seq LIMIT ?
            """
        ),
        arguments: [limit]
      ).map(Self.notification)
    }
  }

  public func markDelivered(_ ids: [String]) async throws {
    try await pool.write { db in
      let update = try db.cachedStatement(sql: "UPDATE notification SET delivered = 1 WHERE id = ?")
      for id in ids { try update.execute(arguments: [id]) }
    }
  }

  // MARK: - Preferences and devices

  public func preferences(userID: String) throws -> DeliveryPreferences? {
    try preferences(userIDs: [userID])[userID]
  }

  /// The preferences of those of `userIDs` who chose any.
  public func preferences(userIDs: [String]) throws -> [String: DeliveryPreferences] {
    try pool.read { db in
      var found: [String: DeliveryPreferences] = [:]
      let select = try db.cachedStatement(sql: "SELECT push, email, sms FROM notification_preference WHERE user_id = ?")
      let topics = try db.cachedStatement(sql: "SELECT topic, receive, push, email, sms FROM notification_topic_preference WHERE user_id = ?")
      for userID in userIDs {
        if let row = try Row.fetchOne(select, arguments: [userID]) {
          var preferences = DeliveryPreferences(push: row["push"], email: row["email"], sms: row["sms"])
          for topic in try Row.fetchAll(topics, arguments: [userID]) {
            // A topic this version does not know (written by a newer one) is left alone.
            guard let name = NotificationTopic(rawValue: topic["topic"]) else { continue }
            preferences.topics[name] = TopicPreference(receive: topic["receive"], push: topic["push"], email: topic["email"], sms: topic["sms"])
          }
          found[userID] = preferences
        }
      }
      return found
    }
  }

  public func setPreferences(userID: String, _ preferences: DeliveryPreferences) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO notification_preference (user_id, push, email, sms) VALUES (?, ?, ?, ?)
          ON CONFLICT (user_id) DO UPDATE SET push = excluded.push, email = excluded.email, sms = excluded.sms
          """,
        arguments: [userID, preferences.push, preferences.email, preferences.sms]
      )
      for (topic, chosen) in preferences.topics {
        try db.execute(
          sql: """
            INSERT INTO notification_topic_preference (user_id, topic, receive, push, email, sms) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (user_id, topic) DO UPDATE SET
              receive = excluded.receive, push = excluded.push, email = excluded.email, sms = excluded.sms
            """,
          arguments: [userID, topic.rawValue, chosen.receive, chosen.push, chosen.email, chosen.sms]
        )
      }
    }
  }

  /// Saves a device; a device with the same platform and token is replaced (it changed hands or
  /// was renamed) and keeps its id.
  public func registerDevice(_ device: PushDevice) async throws -> PushDevice {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO push_device (id, user_id, platform, token, name, registered_at) VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (platform, token) DO UPDATE SET user_id = excluded.user_id, name = excluded.name,
            registered_at = excluded.registered_at
          """,
        arguments: [
          device.id, device.userID, device.platform.rawValue, device.token, device.name,
          device.registeredAt.timeIntervalSince1970,
        ]
      )
      let id =
        try String.fetchOne(
          db.cachedStatement(sql: "SELECT id FROM push_device WHERE platform = ? AND token = ?"),
          arguments: [device.platform.rawValue, device.token]
        ) ?? device.id
      var saved = device
      saved.id = id
      return saved
    }
  }

  public func devices(userID: String) throws -> [PushDevice] {
    try devices(userIDs: [userID])
  }

  /// The devices of `userIDs`, oldest registration first.
  public func devices(userIDs: [String]) throws -> [PushDevice] {
    try pool.read { db in
      let select = try db.cachedStatement(
        sql: "SELECT id, user_id, platform, token, name, registered_at FROM push_device WHERE user_id = ? ORDER BY registered_at, rowid"
      )
      var devices: [PushDevice] = []
      for userID in userIDs {
        devices += try Row.fetchAll(select, arguments: [userID]).compactMap { row in
          guard let platform = PushPlatform(rawValue: row["platform"]) else { return nil }
          return PushDevice(
            id: row["id"],
            userID: row["user_id"],
            platform: platform,
            token: row["token"],
            name: row["name"],
            registeredAt: Date(timeIntervalSince1970: row["registered_at"])
          )
        }
      }
      return devices
    }
  }

  /// Removes a device of the user; returns whether it had it.
  public func removeDevice(id: String, userID: String) async throws -> Bool {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM push_device WHERE id = ? AND user_id = ?", arguments: [id, userID])
      return db.changesCount == 1
    }
  }

  /// Removes the device a provider reported gone.
  public func removeDevice(platform: PushPlatform, token: String) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "DELETE FROM push_device WHERE platform = ? AND token = ?",
        arguments: [platform.rawValue, token]
      )
    }
  }

  // MARK: - Outbox

  /// Records a message sent on a channel; the same delivery id again is ignored.
  public func recordDelivery(_ delivery: Delivery) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT OR IGNORE INTO delivery (id, channel, user_id, notification_id, address, title, body, sent_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          delivery.id, delivery.channel.rawValue, delivery.userID, delivery.notificationID, delivery.address,
          delivery.title, delivery.body, delivery.sentAt.timeIntervalSince1970,
        ]
      )
    }
  }

  /// The outbox, newest first (one user's, or everyone's).
  public func deliveries(userID: String?, limit: Int) throws -> [Delivery] {
    try pool.read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT id, channel, user_id, notification_id, address, title, body, sent_at FROM delivery
          \(userID == nil ? "" : "WHERE user_id = ?") ORDER BY seq DESC LIMIT ?
          """,
        arguments: StatementArguments(userID.map { [$0, limit] as [any DatabaseValueConvertible] } ?? [limit])
      ).map { row in
        Delivery(
          id: row["id"],
          channel: DeliveryChannel(rawValue: row["channel"]) ?? .push,
          userID: row["user_id"],
          notificationID: row["notification_id"],
          address: row["address"],
          title: row["title"],
          body: row["body"],
          sentAt: Date(timeIntervalSince1970: row["sent_at"])
        )
      }
    }
  }

  // MARK: - Rows

  static func notification(_ row: Row) throws -> UserNotification {
    let data = try JSONDecoder().decode([String: String].self, from: Data((row["data"] as String).utf8))
    return UserNotification(
      id: row["id"],
      sequence: row["seq"],
      userID: row["user_id"],
      content: NotificationContent(
        kind: NotificationKind(rawValue: row["kind"]) ?? .general,
        title: TranslatedText(stored: row["title"]),
        body: TranslatedText(stored: row["body"]),
        data: data
      ),
      createdAt: Date(timeIntervalSince1970: row["created_at"]),
      read: (row["read_at"] as Double?) != nil,
      pushOnly: row["push_only"]
    )
  }

  static func encodedData(_ data: [String: String]) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(data), as: UTF8.self)
  }
}
