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
  /// Up to how many bytes of the database file each connection reads through a memory map
  /// (`PRAGMA mmap_size`) instead of `pread` into SQLite's page cache: for a database read at
  /// random far beyond that cache (geo-offers' spatial index), it saves a system call and a copy
  /// per page. 0 (the default) reads as SQLite does by default.
  public var memoryMapBytes: Int

  public init(path: String, busyTimeout: Duration = .seconds(5), readOnly: Bool = false, memoryMapBytes: Int = 0) {
    self.path = path
    self.busyTimeout = busyTimeout
    self.readOnly = readOnly
    self.memoryMapBytes = memoryMapBytes
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
