import Foundation
import GRDB
import Logging

/// Opens a service's own SQLite database.
///
/// The database is a GRDB `DatabasePool`: WAL journal, one writer and concurrent readers,
/// foreign keys enforced on every connection, the configured busy timeout, and
/// `synchronous = NORMAL`. With WAL, NORMAL means a transaction that has committed is in the WAL
/// file before `write` returns, so it survives the process being killed at any point after: an
/// acknowledged write is never lost to a crash or `kill -9`. What NORMAL gives up is durability
/// across a power loss or kernel crash, where the last transactions before it may roll back
/// (the database stays consistent).
public enum ServiceDatabase {
  /// Opens (creating it and its folder if needed) the database at `configuration.path`, then
  /// applies the migrations it has not applied yet, each logged at `info`.
  ///
  /// Throws ``DatabaseOpeningError`` when the database was migrated by a newer build (it has
  /// migrations `migrations` does not list), when it lacks a migration listed before ones it has,
  /// when a migration fails, or when SQLite cannot open the file. A read-only database is never
  /// migrated: it must already have every migration.
  public static func open(
    _ configuration: DatabaseConfiguration,
    migrations: DatabaseMigrations,
    logger: Logger = Logger(label: "binario.storage")
  ) throws -> DatabasePool {
    let path = configuration.path
    func failure(_ reason: DatabaseOpeningError.Reason) -> DatabaseOpeningError {
      DatabaseOpeningError(path: path, reason: reason)
    }

    if let duplicate = migrations.firstDuplicateIdentifier {
      throw failure(.duplicateMigration(duplicate))
    }
    if configuration.readOnly {
      guard FileManager.default.fileExists(atPath: path) else { throw failure(.missingFile) }
    } else {
      let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        throw failure(.cannotCreateFolder(message: "\(error)"))
      }
    }

    var grdbConfiguration = Configuration()
    grdbConfiguration.foreignKeysEnabled = true
    grdbConfiguration.readonly = configuration.readOnly
    grdbConfiguration.busyMode = .timeout(configuration.busyTimeout.timeInterval)
    grdbConfiguration.label = URL(fileURLWithPath: path).lastPathComponent
    let memoryMapBytes = configuration.memoryMapBytes
    if memoryMapBytes > 0 {
      grdbConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = \(memoryMapBytes)") }
    }

    let pool: DatabasePool
    do {
      pool = try DatabasePool(path: path, configuration: grdbConfiguration)
    } catch {
      throw failure(.cannotOpen(message: "\(error)"))
    }
    do {
      try migrate(pool, with: migrations, readOnly: configuration.readOnly, path: path, logger: logger)
    } catch {
      try? pool.close()
      throw error
    }
    return pool
  }

  /// ``open(_:migrations:logger:)`` with the configuration spelled out.
  public static func open(
    at path: String,
    migrations: DatabaseMigrations,
    busyTimeout: Duration = .seconds(5),
    readOnly: Bool = false,
    memoryMapBytes: Int = 0,
    logger: Logger = Logger(label: "binario.storage")
  ) throws -> DatabasePool {
    try open(
      DatabaseConfiguration(path: path, busyTimeout: busyTimeout, readOnly: readOnly, memoryMapBytes: memoryMapBytes),
      migrations: migrations,
      logger: logger
    )
  }

  private static func migrate(
    _ pool: DatabasePool,
    with migrations: DatabaseMigrations,
    readOnly: Bool,
    path: String,
    logger: Logger
  ) throws {
    func failure(_ reason: DatabaseOpeningError.Reason) -> DatabaseOpeningError {
      DatabaseOpeningError(path: path, reason: reason)
    }
    let migrator = migrations.migrator
    let known = migrations.identifiers
    let applied: Set<String>
    do {
      applied = try pool.read { db in try migrator.appliedIdentifiers(db) }
    } catch {
      throw failure(.cannotOpen(message: "\(error)"))
    }

    let unknown = applied.subtracting(known).sorted()
    guard unknown.isEmpty else { throw failure(.newerDatabase(unknownMigrations: unknown)) }

    guard let lastApplied = known.lastIndex(where: applied.contains) else {
      return try apply(known, of: migrator, to: pool, readOnly: readOnly, path: path, logger: logger)
    }
    let skipped = known[...lastApplied].filter { !applied.contains($0) }
    guard skipped.isEmpty else { throw failure(.skippedMigrations(skipped)) }
    try apply(Array(known[(lastApplied + 1)...]), of: migrator, to: pool, readOnly: readOnly, path: path, logger: logger)
  }

  private static func apply(
    _ pending: [String],
    of migrator: DatabaseMigrator,
    to pool: DatabasePool,
    readOnly: Bool,
    path: String,
    logger: Logger
  ) throws {
    guard !pending.isEmpty else { return }
    if readOnly {
      throw DatabaseOpeningError(path: path, reason: .notMigrated(missingMigrations: pending))
    }
    for identifier in pending {
      do {
        try migrator.migrate(pool, upTo: identifier)
      } catch {
        throw DatabaseOpeningError(path: path, reason: .migrationFailed(identifier: identifier, message: "\(error)"))
      }
      logger.info("applied database migration", metadata: ["database": "\(path)", "migration": "\(identifier)"])
    }
  }
}

extension Duration {
  fileprivate var timeInterval: TimeInterval {
    TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
  }
}
