import Foundation

/// Where a service's SQLite database lives and how connections to it behave.
public struct DatabaseConfiguration: Sendable {
  /// The database file. Its folder is created on open (unless ``readOnly``).
  public var path: String
  /// How long a connection waits for another connection's lock before failing with
  /// `SQLITE_BUSY`. Within one process GRDB serializes writes, so this matters only when
  /// another process (a CLI, a backup) holds the file.
  public var busyTimeout: Duration
  /// Opens an existing, fully migrated database without ever writing to it.
  public var readOnly: Bool

  public init(path: String, busyTimeout: Duration = .seconds(5), readOnly: Bool = false) {
    self.path = path
    self.busyTimeout = busyTimeout
    self.readOnly = readOnly
  }

  /// A database file in a fresh, uniquely named folder under the system's temporary directory.
  ///
  /// Nothing removes that folder: prefer ``TemporaryDatabase``, which does.
  public static func temporary(fileName: String = "database.sqlite") -> DatabaseConfiguration {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("binario-db-\(UUID().uuidString)", isDirectory: true)
    return DatabaseConfiguration(path: folder.appendingPathComponent(fileName).path)
  }
}
