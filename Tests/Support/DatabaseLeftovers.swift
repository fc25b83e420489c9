import Foundation
import GRDB

/// What is left of a person in a service's database file, for the erasure tests and the chaos
/// run (docs/data-map.md).
public enum DatabaseLeftovers {
  /// Every `table.column` of the SQLite file at `path` (opened read-only) holding one of
  /// `identifiers`, as text or inside a blob.
  public static func occurrences(of identifiers: [String], in path: URL) throws -> [String] {
    var configuration = Configuration()
    configuration.readonly = true
    let database = try DatabaseQueue(path: path.path, configuration: configuration)
    return try database.read { db in
      var found: [String] = []
      let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      for table in tables {
        let columns = try db.columns(in: table).map(\.name)
        for column in columns {
          for identifier in identifiers {
            let count =
              try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM \"\(table)\" WHERE instr(CAST(\"\(column)\" AS BLOB), CAST(? AS BLOB)) > 0",
                arguments: [identifier]
              ) ?? 0
            if count > 0 { found.append("\(table).\(column) holds \(identifier) (\(count) rows)") }
          }
        }
      }
      return found
    }
  }
}

/// How far consumers have applied a producer's events, read from the services' database files
/// (docs/events.md): what a test waits on before it looks for what an event should have erased.
public enum EventProgress {
  /// The last event `producer` has recorded (0 for none).
  public static func head(of producer: String, in folder: URL) throws -> Int64 {
    try read(folder, producer) { db in try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM event_log") ?? 0 }
  }

  /// Where `consumer` stands in `producer`'s events (0 before the first).
  public static func cursor(of consumer: String, in producer: String, folder: URL) throws -> Int64 {
    try read(folder, consumer) { db in
      try Int64.fetchOne(db, sql: "SELECT sequence FROM event_cursor WHERE producer = ?", arguments: [producer]) ?? 0
    }
  }

  /// Waits until each of `consumers` has applied every event `producer` has recorded so far.
  public static func waitUntilApplied(by consumers: [String], from producer: String, folder: URL) async throws {
    let head = try head(of: producer, in: folder)
    for consumer in consumers {
      _ = try await eventually("\(consumer) applies \(producer)'s events through #\(head)") {
        try cursor(of: consumer, in: producer, folder: folder) >= head ? true : nil
      }
    }
  }

  private static func read<T>(_ folder: URL, _ service: String, _ body: (Database) throws -> T) throws -> T {
    var configuration = Configuration()
    configuration.readonly = true
    let path = folder.appendingPathComponent("data/\(service)/\(service).sqlite").path
    return try DatabaseQueue(path: path, configuration: configuration).read(body)
  }
}
