import BinarioStorage
import Foundation
import GRDB
import Testing

@Suite("A database's backups: taken online, listed, pruned, restored")
struct DatabaseBackupsTests {
  static let migrations = DatabaseMigrations().add("v1-note") { db in
    try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
  }

  static func notes(in file: URL) throws -> [String] {
    let queue = try DatabaseQueue(path: file.path)
    defer { try? queue.close() }
    return try queue.read { db in try String.fetchAll(db, sql: "SELECT text FROM note ORDER BY id") }
  }

  @Test("A backup taken while the database is open holds what was committed; a list is newest first; pruning keeps the newest")
  func takeListPrune() async throws {
    let database = try TemporaryDatabase(migrations: Self.migrations)
    let backups = DatabaseBackups(database: URL(fileURLWithPath: database.path), directory: database.directory.appendingPathComponent("backups"))
    try await database.pool.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('one')") }
    let first = try backups.take(at: Date(timeIntervalSince1970: 1_800_000_000))
    try await database.pool.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('two')") }
    let second = try backups.take(at: Date(timeIntervalSince1970: 1_800_003_600))
    let third = try backups.take(at: Date(timeIntervalSince1970: 1_800_007_200))

    #expect(first.file.lastPathComponent == "\(backups.name)-20270115T080000Z.sqlite")
    #expect(try Self.notes(in: first.file) == ["one"])
    #expect(try Self.notes(in: second.file) == ["one", "two"])
    #expect(try backups.list().map(\.file) == [third.file, second.file, first.file])
    #expect(try DatabaseBackups.services(in: backups.directory) == [backups.name])
    #expect(try backups.prune(keeping: 2).map(\.file) == [first.file])
    #expect(try backups.list().map(\.file) == [third.file, second.file])
    // Nothing else in the folder counts, nor a partial copy.
    try Data("x".utf8).write(to: backups.directory.appendingPathComponent("\(backups.name)-20270115T090000Z.sqlite.partial"))
    try Data("x".utf8).write(to: backups.directory.appendingPathComponent("notes.txt"))
    #expect(try backups.list().count == 2)
  }

  @Test("A restore needs the data directory's lock, checks the backup, and keeps what it replaces")
  func restore() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backups-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("data/notes.sqlite")
    let backups = DatabaseBackups(database: file, directory: folder.appendingPathComponent("backups"))
    do {
      let pool = try ServiceDatabase.open(at: file.path, migrations: Self.migrations)
      try await pool.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('kept')") }
      _ = try backups.take(at: Date(timeIntervalSince1970: 1_800_000_000))
      try await pool.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('after the backup')") }
      try pool.close()
    }
    let good = try #require(try backups.list().first)
    let directory = file.deletingLastPathComponent().path

    do {
      // While the service runs it holds its data directory's lock: a restore cannot take it.
      let serving = try DataDirectoryLock(directory: directory)
      #expect(throws: DataDirectoryLock.Held.self) { _ = try DataDirectoryLock(directory: directory) }
      withExtendedLifetime(serving) {}
    }
    let lock = try DataDirectoryLock(directory: directory)

    // A damaged backup is refused before anything is replaced.
    let damaged = backups.directory.appendingPathComponent("notes-20270115T090000Z.sqlite")
    try Data(repeating: 7, count: 8192).write(to: damaged)
    let newest = try #require(try backups.list().first)
    #expect(newest.file == damaged)
    #expect(throws: DatabaseBackups.Unusable.self) { _ = try backups.restore(newest, lock: lock, at: Date()) }
    #expect(try Self.notes(in: file) == ["kept", "after the backup"])

    let restored = try backups.restore(good, lock: lock, at: Date(timeIntervalSince1970: 1_800_010_000))
    #expect(try Self.notes(in: file) == ["kept"])
    let aside = try #require(restored.replacedMovedTo)
    #expect(aside.lastPathComponent == "notes.sqlite.before-restore-20270115T104640Z")
    #expect(try Self.notes(in: aside) == ["kept", "after the backup"])
  }
}
