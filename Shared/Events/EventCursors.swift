import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

/// An event was applied already: the transaction that would apply it again is rolled back.
public struct EventAlreadyApplied: Error, Sendable, Hashable {
  public let position: EventPosition
}

extension Database {
  /// Moves this consumer's cursor for `position.producer` to `position`, in the current
  /// transaction: what a consumer's store calls beside an event's effect. Throws
  /// ``EventAlreadyApplied`` (rolling the effect back with it) when the cursor is already there
  /// or past it, so an event delivered twice takes effect once.
  public func advanceEventCursor(to position: EventPosition, at time: Date) throws {
    let current = try Int64.fetchOne(self, sql: "SELECT sequence FROM event_cursor WHERE producer = ?", arguments: [position.producer])
    if let current, current >= position.sequence { throw EventAlreadyApplied(position: position) }
    try execute(
      sql: """
        INSERT INTO event_cursor (producer, sequence, updated_at) VALUES (?, ?, ?)
        ON CONFLICT (producer) DO UPDATE SET sequence = excluded.sequence, updated_at = excluded.updated_at
        """,
      arguments: [position.producer, position.sequence, time.timeIntervalSince1970]
    )
  }
}

/// A consumer's cursors, as its subscriptions read and move them outside an event's effect
/// (an event it has nothing to do for, the head of a filtered log, lost events).
public struct EventCursorStore: Sendable {
  let pool: DatabasePool

  public init(pool: DatabasePool) {
    self.pool = pool
  }

  /// The last event applied from `producer` (0: none yet).
  public func sequence(of producer: String) async throws -> Int64 {
    try await pool.readOnReaderQueue { db in
      try Int64.fetchOne(db, sql: "SELECT sequence FROM event_cursor WHERE producer = ?", arguments: [producer]) ?? 0
    }
  }

  /// Moves the cursor to `position` when it is behind it; returns whether it moved.
  @discardableResult
  public func advance(to position: EventPosition, at time: Date) async throws -> Bool {
    try await pool.write { db in
      do {
        try db.advanceEventCursor(to: position, at: time)
        return true
      } catch is EventAlreadyApplied {
        return false
      }
    }
  }

  /// Records that events up to `position` were lost (pruned unread): adds `count` to the tally
  /// and moves the cursor past them.
  public func recordLost(_ count: Int64, through position: EventPosition, at time: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO event_cursor (producer, sequence, lost, updated_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (producer) DO UPDATE SET
            sequence = max(sequence, excluded.sequence), lost = lost + excluded.lost, updated_at = excluded.updated_at
          """,
        arguments: [position.producer, position.sequence, count, time.timeIntervalSince1970]
      )
    }
  }

  /// Moves the cursor back to `sequence` if it is past it: the producer's log went back in time
  /// (``EventSubscription`` heard `LogRewound`), and its next events will be numbered after it.
  public func rewind(_ producer: String, to sequence: Int64, at time: Date) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE event_cursor SET sequence = ?, updated_at = ? WHERE producer = ? AND sequence > ?",
        arguments: [sequence, time.timeIntervalSince1970, producer, sequence]
      )
    }
  }

  /// How many events from `producer` were lost, in all.
  public func lost(from producer: String) async throws -> Int64 {
    try await pool.readOnReaderQueue { db in
      try Int64.fetchOne(db, sql: "SELECT lost FROM event_cursor WHERE producer = ?", arguments: [producer]) ?? 0
    }
  }
}
