import BinarioStorage
import Foundation
import GRDB

/// Scheduling's database: the only code of the service that writes SQL. Every value reaches
/// SQLite as a statement argument; each method is one transaction, committed when it returns.
public final class SchedulingStore: Sendable {
  let pool: DatabasePool
  /// Trips and their stops as last read; every write to them invalidates it.
  let trips = TripCache()

  /// Uses an open database that has ``SchedulingMigrations/all`` applied.
  public init(pool: DatabasePool) {
    self.pool = pool
  }

  /// Runs a write that changes trips or their stops, then drops the cached trips.
  func writingTrips<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    defer { trips.invalidate() }
    return try await pool.write(body)
  }

  /// Opens (creating and migrating it if needed) `scheduling.sqlite` in `directory`.
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("scheduling.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: SchedulingMigrations.all))
  }
}
