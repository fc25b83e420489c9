import BinarioStorage
import Foundation
import GRDB

/// Scheduling's database: the only code of the service that writes SQL. Every value reaches
/// SQLite as a statement argument; each method is one transaction, committed when it returns.
public final class SchedulingStore: Sendable {
  let pool: DatabasePool

  /// Uses an open database that has ``SchedulingMigrations/all`` applied.
  public init(pool: DatabasePool) {
    self.pool = pool
  }

  /// Opens (creating and migrating it if needed) `scheduling.sqlite` in `directory`.
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("scheduling.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: SchedulingMigrations.all))
  }
}
