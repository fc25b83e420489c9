import BinarioDomain
import Foundation
import GRDB

extension SchedulingStore {
  /// Keeps `notice` and, in the same transaction, notifies `userIDs` with `content`; boards
  /// show it from the commit on. With an `idempotencyKey` its admin used before, writes nothing
  /// and returns that earlier notice (`nil`: kept).
  public func insert(
    _ notice: ServiceNotice,
    idempotencyKey: String?,
    notifying userIDs: [String],
    with content: NotificationContent,
    onCommitted: @escaping @Sendable ([UserNotification]) -> Void
  ) async throws -> ServiceNotice? {
    defer { timetableChanged() }
    let texts = try Self.json(notice.texts.map { ["language": $0.language.rawValue, "title": $0.title, "description": $0.description] })
    let lines = try Self.json(notice.lineIDs)
    let stations = try Self.json(notice.stationIDs)
    return try await pool.write { db in
      if let idempotencyKey, let earlier = try Self.notice(db, by: notice.createdBy, idempotencyKey: idempotencyKey) {
        return earlier
      }
      try db.execute(
        sql: """
          INSERT INTO service_notice (id, texts, line_ids, station_ids, starts_at, ends_at, cause, effect, created_by, created_at,
            followers_told, idempotency_key)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
        arguments: [
          notice.id, texts, lines, stations, notice.startsAt.timeIntervalSince1970, notice.endsAt.timeIntervalSince1970,
          notice.cause.rawValue, notice.effect.rawValue, notice.createdBy, notice.createdAt.timeIntervalSince1970,
          notice.followersTold, idempotencyKey,
        ]
      )
      let made = try Self.insertNotifications(db, userIDs: userIDs, content: content, pushOnly: false, at: notice.createdAt)
      Self.publish(made, from: db, to: onCommitted)
      return nil
    }
  }

  /// Ends the notice at `now` unless it is over already; `nil` when there is no such notice.
  public func endNotice(id: String, at now: Date) async throws -> ServiceNotice? {
    defer { timetableChanged() }
    let instant = now.timeIntervalSince1970
    return try await pool.write { db in
      try db.execute(
        sql: "UPDATE service_notice SET ends_at = ?, starts_at = MIN(starts_at, ?) WHERE id = ? AND ends_at > ?",
        arguments: [instant, instant, id, instant]
      )
      return try Self.notices(db, where: "id = ?", [id]).first
    }
  }

  public func notice(by createdBy: String, idempotencyKey: String) throws -> ServiceNotice? {
    try pool.read { db in try Self.notice(db, by: createdBy, idempotencyKey: idempotencyKey) }
  }

  /// The notices ending after `instant`, soonest start first.
  public func notices(endingAfter instant: Date) throws -> [ServiceNotice] {
    try pool.read { db in
      try Self.notices(db, where: "ends_at > ?", [instant.timeIntervalSince1970], order: "starts_at, created_at")
    }
  }

  /// Every notice, newest first.
  public func allNotices() throws -> [ServiceNotice] {
    try pool.read { db in try Self.notices(db, where: "1", [], order: "created_at DESC") }
  }

  /// Each followed run on service days `first` through `last`, with its follower, in the order
  /// they began following.
  public func followedRuns(
    fromDay first: ServiceDate,
    throughDay last: ServiceDate
  ) throws -> [(tripID: String, serviceDate: ServiceDate, follower: RunFollower)] {
    try pool.read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT trip_id, service_day, user_id, from_station_id, to_station_id FROM run_follower
            WHERE service_day BETWEEN ? AND ? ORDER BY followed_at, user_id
            """
        ),
        arguments: [first.daysSinceEpoch, last.daysSinceEpoch]
      ).map {
        (
          $0[0], ServiceDate(daysSinceEpoch: $0[1]),
          RunFollower(userID: $0[2], part: FollowedPart(fromStationID: $0[3], toStationID: $0[4]))
        )
      }
    }
  }

  private static func notice(_ db: Database, by createdBy: String, idempotencyKey: String) throws -> ServiceNotice? {
    try notices(db, where: "created_by = ? AND idempotency_key = ?", [createdBy, idempotencyKey]).first
  }

  private static func notices(
    _ db: Database,
    where condition: String,
    _ arguments: StatementArguments,
    order: String = "created_at"
  ) throws -> [ServiceNotice] {
    try Row.fetchAll(db, sql: "SELECT * FROM service_notice WHERE \(condition) ORDER BY \(order)", arguments: arguments).map { row in
      let texts = (try? JSONDecoder().decode([[String: String]].self, from: Data((row["texts"] as String).utf8))) ?? []
      return ServiceNotice(
        id: row["id"],
        texts: texts.compactMap { text in
          Language(rawValue: text["language"] ?? "").map {
            ServiceNotice.Text(language: $0, title: text["title"] ?? "", description: text["description"] ?? "")
          }
        },
        lineIDs: (try? JSONDecoder().decode([String].self, from: Data((row["line_ids"] as String).utf8))) ?? [],
        stationIDs: (try? JSONDecoder().decode([String].self, from: Data((row["station_ids"] as String).utf8))) ?? [],
        startsAt: Date(timeIntervalSince1970: row["starts_at"]),
        endsAt: Date(timeIntervalSince1970: row["ends_at"]),
        cause: ServiceNotice.Cause(rawValue: row["cause"]) ?? .other,
        effect: ServiceNotice.Effect(rawValue: row["effect"]) ?? .other,
        createdBy: row["created_by"],
        createdAt: Date(timeIntervalSince1970: row["created_at"]),
        followersTold: row["followers_told"]
      )
    }
  }

  private static func json(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(value), as: UTF8.self)
  }
}

extension SchedulingStore {
  /// The latest instant at or before `now` at which something the realtime feed carries
  /// changed: a live change made, a notice published or ended.
  public func latestFeedChange(atOrBefore now: Date) throws -> Date? {
    try pool.read { db in
      try Double.fetchOne(
        db,
        sql: """
          SELECT MAX(instant) FROM (
            SELECT MAX(changed_at) AS instant FROM run_change
            UNION ALL SELECT MAX(created_at) FROM service_notice
            UNION ALL SELECT MAX(ends_at) FROM service_notice WHERE ends_at <= ?
          )
          """,
        arguments: [now.timeIntervalSince1970]
      ).map { Date(timeIntervalSince1970: $0) }
    }
  }
}
