import GRDB

/// The versioned schema migrations of one service's database, in the order they apply.
///
/// ```swift
/// let migrations = DatabaseMigrations()
///   .add("v1-create-accounts") { db in
///     try db.create(table: "account") { t in ... }
///   }
///   .add("v2-add-account-email") { db in ... }
/// ```
///
/// Each migration is applied once, in its own transaction, with foreign keys checked when it
/// ends (GRDB's `.deferred` checks, so a migration may rebuild a table). The database records
/// the identifiers it has applied; opening it again applies only the new ones. Never edit,
/// rename or reorder a migration that has shipped: append a new one at the end.
public struct DatabaseMigrations: Sendable {
  struct Migration: Sendable {
    let identifier: String
    let apply: @Sendable (Database) throws -> Void
  }

  private(set) var migrations: [Migration] = []

  /// No migrations.
  public init() {}

  /// The identifiers, in the order they apply.
  public var identifiers: [String] {
    migrations.map(\.identifier)
  }

  /// These migrations followed by one more.
  public func add(_ identifier: String, _ apply: @escaping @Sendable (Database) throws -> Void) -> DatabaseMigrations {
    var copy = self
    copy.migrations.append(Migration(identifier: identifier, apply: apply))
    return copy
  }

  /// These migrations up to `identifier`, included: the schema as it was then (a test of a later
  /// migration fills the older tables first).
  public func through(_ identifier: String) -> DatabaseMigrations {
    var copy = self
    if let last = migrations.firstIndex(where: { $0.identifier == identifier }) {
      copy.migrations = Array(migrations[...last])
    }
    return copy
  }

  /// The first identifier registered twice, if any.
  var firstDuplicateIdentifier: String? {
    var seen: Set<String> = []
    return identifiers.first { !seen.insert($0).inserted }
  }

  /// A GRDB migrator with these migrations. GRDB traps on a duplicate identifier: check
  /// ``firstDuplicateIdentifier`` first.
  var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for migration in migrations {
      migrator.registerMigration(migration.identifier, migrate: migration.apply)
    }
    return migrator
  }
}
