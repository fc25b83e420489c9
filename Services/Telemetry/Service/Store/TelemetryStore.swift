import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Telemetry's database: the only code of the service that writes SQL. Every value reaches SQLite
/// as a statement argument; each method is one transaction, committed when it returns.
public final class TelemetryStore: Sendable {
  /// The database, each transaction a span of the call it serves.
  let pool: TracedDatabasePool

  /// Uses an open database that has ``TelemetryMigrations/all`` applied.
  public init(pool: DatabasePool) {
    self.pool = TracedDatabasePool(pool)
  }

  /// The database, for the event subscriptions' cursors.
  public var database: DatabasePool { pool.underlying }

  /// Opens (creating and migrating it if needed) `telemetry.sqlite` in `directory`.
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("telemetry.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: TelemetryMigrations.all))
  }

  /// A device's row key, or `nil` when there is no such device.
  public func deviceSeq(id: String) async throws -> Int64? {
    try pool.readOnCurrentThread { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT seq FROM device WHERE id = ?"), arguments: [id]) }
  }
}
