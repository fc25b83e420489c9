import BinarioEvents
import BinarioStorage
import Foundation
import GRDB

/// Identity's database: the only code of the service that writes SQL.
///
/// Every value reaches SQLite as a statement argument, never spliced into the SQL text, so any
/// string (quotes, `'; DROP TABLE account; --`) is stored and returned literally. Each method is
/// one transaction: when it returns, its change has committed.
public final class IdentityStore: Sendable {
  /// The database, each transaction a span of the call it serves.
  let pool: TracedDatabasePool
  /// The events identity tells the other services (`IdentityStore+Events.swift`), recorded in
  /// the transactions of the changes they report; served by the process's `EventLog`.
  public let events = EventOutbox()

  /// Uses an open database that has ``IdentityMigrations/all`` applied.
  public init(pool: DatabasePool) {
    self.pool = TracedDatabasePool(pool)
  }

  /// The database, for the event log's own reads.
  public var database: DatabasePool { pool.underlying }

  /// Opens (creating and migrating it if needed) `identity.sqlite` in `directory`.
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("identity.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: IdentityMigrations.all))
  }
}

/// A write the database refused because it would break a uniqueness rule.
public enum StoreConflict: Error, Sendable, Hashable {
  /// Another account has this email address.
  case emailTaken
  /// The row already exists (a second friend request, a second friendship).
  case duplicate
}

extension Date {
  /// Seconds since 1970, as the database stores times.
  var storedValue: Double { timeIntervalSince1970 }

  init(stored value: Double) {
    self.init(timeIntervalSince1970: value)
  }
}

extension DatabaseError {
  var isUniqueViolation: Bool {
    extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE || extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
  }
}
