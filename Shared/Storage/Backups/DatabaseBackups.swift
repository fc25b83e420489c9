import Foundation
import GRDB

/// A service's database backups: online copies made with SQLite's `VACUUM INTO` from a read
/// transaction of their own, so the service goes on reading and writing meanwhile and each copy
/// is one consistent snapshot (never a file copy under a writer), kept in a folder as
/// `<name>-<UTC time>.sqlite`.
///
/// ``take(at:)`` writes `<file>.partial`, syncs it and renames it into place, so a backup that is
/// listed is whole. ``restore(_:lock:at:)`` checks a backup's integrity before it replaces
/// anything, and keeps what it replaces beside the database.
public struct DatabaseBackups: Sendable {
  /// The database file (`identity.sqlite`).
  public let database: URL
  /// Where the backups are.
  public let directory: URL
  /// The database's name (`identity`): the backups' file names start with it.
  public var name: String { self.database.deletingPathExtension().lastPathComponent }

  public init(database: URL, directory: URL) {
    self.database = database
    self.directory = directory
  }

  /// One backup file.
  public struct Backup: Sendable, Hashable {
    public let file: URL
    /// When it was taken (the snapshot's time, to the second).
    public let takenAt: Date
    public let bytes: Int64
  }

  /// A backup that cannot be used: unreadable, not a SQLite database, or failing its integrity check.
  public struct Unusable: Error, CustomStringConvertible {
    public let file: URL
    public let reason: String
    public var description: String { "the backup \(file.path) cannot be restored: \(reason)" }
  }

  /// The backups in the folder, newest first.
  public func list() throws -> [Backup] {
    guard FileManager.default.fileExists(atPath: self.directory.path) else { return [] }
    let names = try FileManager.default.contentsOfDirectory(atPath: self.directory.path)
    return names.compactMap { name -> Backup? in
      guard let takenAt = self.time(inFileName: name) else { return nil }
      let file = self.directory.appendingPathComponent(name)
      let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
      return Backup(file: file, takenAt: takenAt, bytes: bytes)
    }
    .sorted { $0.takenAt > $1.takenAt }
  }

  /// The databases that have backups in `folder`: `identity` for `identity-20261130T050203Z.sqlite`.
  public static func services(in folder: URL) throws -> [String] {
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).compactMap { name -> String? in
      guard name.hasSuffix(".sqlite"), let dash = name.lastIndex(of: "-") else { return nil }
      let time = name[name.index(after: dash)...].dropLast(".sqlite".count)
      return Self.fileTime.date(from: String(time)) == nil ? nil : String(name[..<dash])
    }
    return Set(names).sorted()
  }

  /// Takes a backup now (`now` names it); returns it.
  public func take(at now: Date) throws -> Backup {
    try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    let file = self.directory.appendingPathComponent("\(self.name)-\(Self.fileTime.string(from: now)).sqlite")
    let partial = URL(fileURLWithPath: file.path + ".partial")
    try? FileManager.default.removeItem(at: partial)
    var configuration = Configuration()
    configuration.readonly = true
    configuration.label = "backup of \(self.database.lastPathComponent)"
    // A connection of its own, read-only: VACUUM INTO reads one snapshot and writes only the copy.
    let source = try DatabaseQueue(path: self.database.path, configuration: configuration)
    defer { try? source.close() }
    try source.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [partial.path]) }
    try Self.sync(partial)
    try FileManager.default.moveItem(at: partial, to: file)
    try Self.sync(self.directory)
    let bytes = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
    // The time its name says: to the second, as ``list()`` reads it back.
    return Backup(file: file, takenAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)), bytes: bytes)
  }

  /// Deletes all but the newest `count` backups; returns those deleted.
  @discardableResult
  public func prune(keeping count: Int) throws -> [Backup] {
    let old = Array(try self.list().dropFirst(count))
    for backup in old { try FileManager.default.removeItem(at: backup.file) }
    return old
  }

  /// What a restore did.
  public struct Restored: Sendable {
    public let backup: Backup
    /// Where the database it replaced went (its `-wal` and `-shm` beside it), if there was one.
    public let replacedMovedTo: URL?
  }

  /// Puts `backup` in the database's place. The service must be stopped: `lock` proves it (its
  /// data directory's lock, which the running service holds). Checks the backup first
  /// (`PRAGMA integrity_check`); the database it replaces, with its `-wal` and `-shm`, is moved
  /// to `<database>.before-restore-<time>`, never deleted.
  public func restore(_ backup: Backup, lock: DataDirectoryLock, at now: Date) throws -> Restored {
    precondition(
      URL(fileURLWithPath: lock.directory).standardizedFileURL.path == self.database.deletingLastPathComponent().standardizedFileURL.path,
      "the lock is not the database's data directory's"
    )
    try Self.check(backup.file)
    let fileManager = FileManager.default
    var movedTo: URL?
    if fileManager.fileExists(atPath: self.database.path) {
      let aside = URL(fileURLWithPath: self.database.path + ".before-restore-\(Self.fileTime.string(from: now))")
      for suffix in ["", "-wal", "-shm"] where fileManager.fileExists(atPath: self.database.path + suffix) {
        try fileManager.moveItem(atPath: self.database.path + suffix, toPath: aside.path + suffix)
      }
      movedTo = aside
    }
    let partial = URL(fileURLWithPath: self.database.path + ".restoring")
    try? fileManager.removeItem(at: partial)
    try fileManager.copyItem(at: backup.file, to: partial)
    try Self.sync(partial)
    try fileManager.moveItem(at: partial, to: self.database)
    try Self.sync(self.database.deletingLastPathComponent())
    return Restored(backup: backup, replacedMovedTo: movedTo)
  }

  /// Opens `file` read-only and runs SQLite's integrity check on it.
  static func check(_ file: URL) throws {
    var configuration = Configuration()
    configuration.readonly = true
    let result: String
    do {
      let queue = try DatabaseQueue(path: file.path, configuration: configuration)
      defer { try? queue.close() }
      result = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
    } catch {
      throw Unusable(file: file, reason: "\(error)")
    }
    guard result == "ok" else { throw Unusable(file: file, reason: "its integrity check says \(result)") }
  }

  private func time(inFileName name: String) -> Date? {
    let prefix = "\(self.name)-"
    guard name.hasPrefix(prefix), name.hasSuffix(".sqlite") else { return nil }
    return Self.fileTime.date(from: String(name.dropFirst(prefix.count).dropLast(".sqlite".count)))
  }

  /// `20261130T050203Z`: sorts as it reads, and is a valid file name everywhere.
  static let fileTime: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    return formatter
  }()

  /// fsync: a file's bytes, or a folder's entries (a rename), on disk before going on.
  static func sync(_ url: URL) throws {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  }
}
