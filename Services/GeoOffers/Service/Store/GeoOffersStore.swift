import BinarioDomain
import BinarioStorage
import Foundation
import GRDB

/// Geo-offers' database: the only code of the service that writes SQL. Every value reaches
/// SQLite as a statement argument; each method is one transaction, committed when it returns.
public final class GeoOffersStore: Sendable {
  /// The database, each transaction a span of the call it serves.
  let pool: TracedDatabasePool

  /// Uses an open database that has ``GeoOffersMigrations/all`` applied.
  /// The database, for the event subscriptions' cursors.
  public var database: DatabasePool { pool.underlying }

  public init(pool: DatabasePool) {
    self.pool = TracedDatabasePool(pool)
  }

  /// Opens (creating and migrating it if needed) `geo-offers.sqlite` in `directory`. Radius
  /// queries read the R*Trees and their rows at random: the file is read through a memory map
  /// of up to 1 GiB (a million deals take about 300 MB).
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("geo-offers.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: GeoOffersMigrations.all, memoryMapBytes: 1 << 30))
  }

  // MARK: - Radius queries

  /// The rows of an indexed table within `radius` metres of `point`, nearest first (ties by
  /// `seq`), at most `limit`.
  ///
  /// `select` reads from the table aliased `t` joined to its R*Tree aliased `b`, its first
  /// three columns `t.seq, t.latitude, t.longitude`; `filter` (starting with `AND`) narrows it
  /// further with `arguments`. `make` builds an item from a row.
  static func within<Item: Sendable & Hashable>(
    _ db: Database,
    point: GeoPoint,
    radius: Double,
    limit: Int,
    select: String,
    filter: String = "",
    arguments: StatementArguments = [],
    make: (Row, GeoPoint) throws -> Item
  ) throws -> [Nearby<Item>] {
    let statement = try db.cachedStatement(
      sql: select + " WHERE b.max_lat >= ? AND b.min_lat <= ? AND b.max_lon >= ? AND b.min_lon <= ? " + filter
    )
    var seen: Set<Int64> = []
    var found: [(seq: Int64, nearby: Nearby<Item>)] = []
    for box in point.boundingBoxes(radiusMetres: radius) {
      let boxArguments: StatementArguments = [box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]
      let rows = try Row.fetchCursor(statement, arguments: boxArguments + arguments)
      while let row = try rows.next() {
        let seq: Int64 = row[0]
        let position = GeoPoint(latitude: row[1], longitude: row[2])
        let distance = point.distance(to: position)
        guard distance <= radius, seen.insert(seq).inserted else { continue }
        found.append((seq, Nearby(try make(row, position), distanceMetres: distance)))
      }
    }
    found.sort { ($0.nearby.distanceMetres, $0.seq) < ($1.nearby.distanceMetres, $1.seq) }
    return found.prefix(limit).map(\.nearby)
  }

  /// Writes a point's entry in an R*Tree (`min = max`).
  static func index(_ db: Database, box table: String, seq: Int64, at position: GeoPoint) throws {
    try db.executeCached(
      sql: "INSERT OR REPLACE INTO \(table) (seq, min_lat, max_lat, min_lon, max_lon) VALUES (?, ?, ?, ?, ?)",
      arguments: [seq, position.latitude, position.latitude, position.longitude, position.longitude]
    )
  }

  static func instant(_ date: Date) -> Double { date.timeIntervalSince1970 }
  static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
}
