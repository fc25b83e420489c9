import BinarioStorage
import Foundation
import GRDB
import Synchronization

/// Ticketing's database: the only code of the service that writes SQL. Every value reaches
/// SQLite as a statement argument; each method is one transaction, committed when it returns.
public final class TicketingStore: Sendable {
  /// The database, each transaction a span of the call it serves.
  let pool: TracedDatabasePool
  /// The fare table in force as last read or written: every quote reads it, and decoding its
  /// JSON cost more than the rest of a quote.
  let fareTableInForce = Mutex<FareTable?>(nil)

  /// The database itself, for what reads and writes it beside the store (the event cursor's
  /// subscription).
  public var database: DatabasePool { pool.underlying }

  /// Uses an open database that has ``TicketingMigrations/all`` applied.
  public init(pool: DatabasePool) {
    self.pool = TracedDatabasePool(pool)
  }

  /// Opens (creating and migrating it if needed) `ticketing.sqlite` in `directory`.
  public convenience init(directory: String) throws {
    let path = URL(fileURLWithPath: directory).appendingPathComponent("ticketing.sqlite").path
    self.init(pool: try ServiceDatabase.open(at: path, migrations: TicketingMigrations.all))
  }

  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()

  static func json<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try encoder.encode(value), as: UTF8.self)
  }

  static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return try decoder.decode(type, from: Data(text.utf8))
  }
}
