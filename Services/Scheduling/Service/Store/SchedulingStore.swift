import BinarioDomain
import BinarioEvents
import BinarioStorage
import Foundation
import GRDB
import Synchronization

/// Scheduling's database: the only code of the service that writes SQL. Every value reaches
/// SQLite as a statement argument; each method is one transaction, committed when it returns.
public final class SchedulingStore: Sendable {
  /// The database, each transaction a span of the call it serves.
  let pool: TracedDatabasePool
  /// Trips and their stops as last read; every write to them invalidates it.
  let trips = TripCache()
  private let version = Atomic<Int>(0)

  /// Goes up after every commit that changes what a run looks like (a live change, a run edit,
  /// an import): what a cache of computed boards checks. Read it before reading what it covers.
  public var timetableVersion: Int { version.load(ordering: .acquiring) }

  /// Signalled after every such commit, once the version is up: what live boards wait on.
  public let timetableChanges = ChangeSignal()

  func timetableChanged() {
    version.add(1, ordering: .releasing)
    timetableChanges.signal()
  }

  /// The timetable changes scheduling tells the other services (`SchedulingStore+Events.swift`),
  /// recorded in the transaction of the change.
  public let events = EventOutbox()

  /// The database, for the event subscriptions' cursors.
  public var database: DatabasePool { pool.underlying }

  /// Uses an open database that has ``SchedulingMigrations/all`` applied.
  public init(pool: DatabasePool) {
    self.pool = TracedDatabasePool(pool)
  }

  /// Runs a write that changes trips or their stops, then drops the cached trips.
  func writingTrips<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    defer {
      trips.invalidate()
      timetableChanged()
    }
    return try await pool.write(body)
  }

  /// Opens (creating and migrating it if needed) `scheduling.sqlite` in `directory`.
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("scheduling.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: SchedulingMigrations.all))
  }
}
