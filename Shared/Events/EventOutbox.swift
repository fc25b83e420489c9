import BinarioDomain
import Foundation
import GRDB
import SwiftProtobuf
import Synchronization

/// A producer's side of the event log, as its store sees it: ``record(_:subjects:at:in:)``
/// appends an event inside the transaction that makes the change, so the event exists if and
/// only if the change committed. The log's streams wake when such a transaction commits.
///
/// The payload is a message of the producer's proto package; the store encodes it, as it encodes
/// any other value it writes.
public final class EventOutbox: Sendable {
  /// Signalled after each commit that recorded an event.
  let committed = ChangeSignal()
  private let closed = Mutex(false)

  public init() {}

  /// Ends every open `WatchEvents` stream, and any opened later: at graceful shutdown, so open
  /// streams do not hold the drain for the whole grace period. Consumers subscribe again, to
  /// the next process, after their cursor.
  public func close() {
    closed.withLock { $0 = true }
    committed.finishAll()
  }

  /// Whether ``close()`` has run.
  var isClosed: Bool { closed.withLock { $0 } }

  /// Appends `payload` to the log in `db`'s current transaction.
  /// - Parameter subjects: whom or what it concerns (user ids, trip ids), for logs and traces.
  public func record(_ payload: some SwiftProtobuf.Message, subjects: [String], at time: Date, in db: Database) throws {
    let bytes: Data = try payload.serializedBytes()
    try db.execute(
      sql: "INSERT INTO event_log (type, subjects, payload, occurred_at) VALUES (?, ?, ?, ?)",
      arguments: [type(of: payload).protoMessageName, subjects.joined(separator: "\n"), bytes, time.timeIntervalSince1970]
    )
    let committed = self.committed
    db.afterNextTransaction(onCommit: { _ in committed.signal() })
  }
}
