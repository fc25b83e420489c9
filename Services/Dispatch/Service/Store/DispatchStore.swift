import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

/// Dispatch's database: the only code of the service that writes SQL. Every value reaches SQLite
/// as a statement argument.
///
/// A state change is one ``transaction(_:)``: the domain's decision runs inside SQLite's single
/// write transaction, so concurrent requests, answers and timeouts are applied one after another
/// and a crash keeps all of a change or none of it.
public final class DispatchStore: Sendable {
  /// The database, each transaction a span of the call it serves.
  let pool: TracedDatabasePool

  /// The database itself, for the event subscription's cursor.
  public var database: DatabasePool { pool.underlying }

  /// Uses an open database that has ``DispatchMigrations/all`` applied.
  public init(pool: DatabasePool) {
    self.pool = TracedDatabasePool(pool)
  }

  /// Opens (creating and migrating it if needed) `dispatch.sqlite` in `directory`.
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("dispatch.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: DispatchMigrations.all))
  }

  /// Runs `body` in one write transaction, committed when it returns; answers its result and the
  /// changes it recorded (``DispatchTransaction/record(_:)``), to publish once committed.
  public func transaction<Result: Sendable>(
    _ body: @escaping @Sendable (DispatchTransaction) throws -> Result
  ) async throws -> (result: Result, changes: [DispatchChange], enqueued: Bool) {
    try await pool.write { db in
      let transaction = DispatchTransaction(db)
      let result = try body(transaction)
      return (result, transaction.changes, transaction.enqueued)
    }
  }

  /// Runs `body` on a consistent snapshot, on the calling thread (short, indexed reads only:
  /// see `readOnCurrentThread`).
  public func read<Result: Sendable>(_ body: (DispatchTransaction) throws -> Result) async throws -> Result {
    try pool.readOnCurrentThread { db in try body(DispatchTransaction(db)) }
  }

  static func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 }
  static func seconds(_ date: Date?) -> Double? { date?.timeIntervalSince1970 }
  static func date(_ seconds: Double?) -> Date? { seconds.map(Date.init(timeIntervalSince1970:)) }
  static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
}

/// One transaction's view of the database: reads and writes of taxis, rides, offers and the
/// outbox. Made by ``DispatchStore`` for the length of one transaction; not to be kept.
public final class DispatchTransaction {
  let db: Database
  private(set) var changes: [DispatchChange] = []
  /// Whether a notification was queued in the outbox.
  var enqueued = false

  init(_ db: Database) {
    self.db = db
  }

  /// Remembers a change to publish once the transaction commits.
  public func record(_ change: DispatchChange) {
    changes.append(change)
  }
}
