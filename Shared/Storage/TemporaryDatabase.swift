import Foundation
import GRDB
import Logging

/// A real SQLite database in a fresh temporary folder, for tests: opened and migrated like a
/// service's own, and deleted with its folder by ``remove()`` or when the value goes away.
public final class TemporaryDatabase: Sendable {
  /// The open, migrated database. Closed once ``remove()`` has run.
  public let pool: DatabasePool
  /// The database file, e.g. to reopen it with ``ServiceDatabase`` after closing ``pool``.
  public let path: String
  /// The folder holding the database (and its `-wal`/`-shm` files); deleted on removal.
  public let directory: URL

  /// Creates the database and applies `migrations`. Migrations are not logged.
  public init(migrations: DatabaseMigrations = DatabaseMigrations(), busyTimeout: Duration = .seconds(5)) throws {
    var configuration = DatabaseConfiguration.temporary()
    configuration.busyTimeout = busyTimeout
    let path = configuration.path
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    do {
      self.pool = try ServiceDatabase.open(
        configuration,
        migrations: migrations,
        logger: Logger(label: "binario.storage.temporary", factory: { _ in SwiftLogNoOpLogHandler() })
      )
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
    self.path = path
    self.directory = directory
  }

  /// Closes ``pool`` and deletes the folder. Calling it again does nothing.
  public func remove() throws {
    try? pool.close()
    if FileManager.default.fileExists(atPath: directory.path) {
      try FileManager.default.removeItem(at: directory)
    }
  }

  deinit {
    try? remove()
  }
}
