import BinarioStorage
import Foundation
import GRDB

/// An event as the producer's log holds it.
public struct StoredEvent: Sendable, Hashable {
  public let sequence: Int64
  public let type: String
  public let subjects: [String]
  public let payload: Data
  public let occurredAt: Date
}

/// What a read of the log after a sequence found, all from one snapshot.
public struct EventBatch: Sendable, Hashable {
  /// Events after the sequence asked (of the types asked), oldest first, at most the limit.
  public let events: [StoredEvent]
  /// The log's last sequence (0 when it never had an event).
  public let head: Int64
  /// Every sequence up to this one has been pruned (0 when none was).
  public let prunedThrough: Int64
}

/// How far one consumer has acknowledged the log.
public struct ConsumerProgress: Sendable, Hashable {
  public let consumer: String
  public let acknowledged: Int64
  /// Events recorded after what it acknowledged.
  public let behind: Int64
}

/// The SQL of a producer's log: reading it after a cursor, consumers' acknowledgements, pruning.
public struct EventLogStore: Sendable {
  let pool: DatabasePool

  public init(pool: DatabasePool) {
    self.pool = pool
  }

  /// Up to `limit` events after `sequence` (only `types`, unless empty), with the head and the
  /// pruned mark read in the same snapshot: when fewer than `limit` come back, every event of
  /// those types up to `head` has been read.
  public func events(after sequence: Int64, types: [String], limit: Int) async throws -> EventBatch {
    try await pool.readOnReaderQueue { db in
      let typeFilter = types.isEmpty ? "" : " AND type IN (\(databaseQuestionMarks(count: types.count)))"
      let rows = try Row.fetchAll(
        db,
        sql: "SELECT sequence, type, subjects, payload, occurred_at FROM event_log WHERE sequence > ?\(typeFilter) ORDER BY sequence LIMIT ?",
        arguments: StatementArguments([sequence] as [any DatabaseValueConvertible] + types + [limit])
      )
      let events = rows.map { row in
        let subjects: String = row["subjects"]
        return StoredEvent(
          sequence: row["sequence"],
          type: row["type"],
          subjects: subjects.isEmpty ? [] : subjects.split(separator: "\n").map(String.init),
          payload: row["payload"],
          occurredAt: Date(timeIntervalSince1970: row["occurred_at"])
        )
      }
      return EventBatch(events: events, head: try Self.head(db), prunedThrough: try Self.prunedThrough(db))
    }
  }

  /// The sequence of the newest event ever recorded (pruned or not): 0 for an empty log.
  public func head() async throws -> Int64 {
    try await pool.read { db in try Self.head(db) }
  }

  /// Records that `consumer` has applied everything through `sequence` (never moves it back).
  public func acknowledge(consumer: String, through sequence: Int64, at time: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO event_consumer (consumer, acknowledged, acknowledged_at) VALUES (?, ?, ?)
          ON CONFLICT (consumer) DO UPDATE SET
            acknowledged = max(acknowledged, excluded.acknowledged), acknowledged_at = excluded.acknowledged_at
          """,
        arguments: [consumer, sequence, time.timeIntervalSince1970]
      )
    }
  }

  /// Deletes the oldest events: those every one of `consumers` has acknowledged and that are
  /// older than `keepAcknowledged`, and, whatever the acknowledgements, those older than
  /// `retention`. Only ever a prefix of the log, so ``EventBatch/prunedThrough`` is exact.
  /// - Returns: How many were deleted.
  @discardableResult
  public func prune(consumers: [String], now: Date, keepAcknowledged: TimeInterval, retention: TimeInterval) async throws -> Int {
    try await pool.write { db in
      var acknowledged = Int64.max
      for consumer in consumers {
        let mark = try Int64.fetchOne(db, sql: "SELECT acknowledged FROM event_consumer WHERE consumer = ?", arguments: [consumer]) ?? 0
        acknowledged = min(acknowledged, mark)
      }
      func lastBefore(_ time: Date) throws -> Int64 {
        try Int64.fetchOne(
          db,
          sql: "SELECT max(sequence) FROM event_log WHERE occurred_at < ?",
          arguments: [time.timeIntervalSince1970]
        ) ?? 0
      }
      let pastRetention = try lastBefore(now.addingTimeInterval(-retention))
      let acknowledgedAndOld = min(acknowledged, try lastBefore(now.addingTimeInterval(-keepAcknowledged)))
      let through = max(pastRetention, acknowledgedAndOld)
      guard through > 0 else { return 0 }
      try db.execute(sql: "DELETE FROM event_log WHERE sequence <= ?", arguments: [through])
      let deleted = db.changesCount
      try db.execute(
        sql: """
          INSERT INTO event_log_pruned (singleton, through) VALUES (1, ?)
          ON CONFLICT (singleton) DO UPDATE SET through = max(through, excluded.through)
          """,
        arguments: [through]
      )
      return deleted
    }
  }

  /// How far each of `consumers` has acknowledged, and how far behind the head it is.
  public func progress(of consumers: [String]) async throws -> [ConsumerProgress] {
    try await pool.readOnReaderQueue { db in
      let head = try Self.head(db)
      return try consumers.map { consumer in
        let mark = try Int64.fetchOne(db, sql: "SELECT acknowledged FROM event_consumer WHERE consumer = ?", arguments: [consumer]) ?? 0
        return ConsumerProgress(consumer: consumer, acknowledged: mark, behind: max(0, head - mark))
      }
    }
  }

  /// The last sequence ever given (AUTOINCREMENT's record survives pruning).
  static func head(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'event_log'") ?? 0
  }

  static func prunedThrough(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT through FROM event_log_pruned WHERE singleton = 1") ?? 0
  }
}
