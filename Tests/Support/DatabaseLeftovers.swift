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
