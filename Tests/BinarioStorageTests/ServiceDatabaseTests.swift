import BinarioStorage
import Foundation
import GRDB
import Testing

/// A parent/child schema, and a table each migration appends its own name to when it runs.
private let accountMigrations = DatabaseMigrations()
  .add("v1-create-accounts") { db in
    try db.execute(sql: "CREATE TABLE migration_run (identifier TEXT NOT NULL)")
    try db.execute(sql: "INSERT INTO migration_run VALUES ('v1-create-accounts')")
    try db.execute(sql: "CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
  }
  .add("v2-create-sessions") { db in
    try db.execute(sql: "INSERT INTO migration_run VALUES ('v2-create-sessions')")
    try db.execute(
      sql: "CREATE TABLE session (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES account(id))"
    )
  }

private func migrationRuns(_ pool: DatabasePool) throws -> [String] {
  try pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM migration_run ORDER BY rowid") }
}

@Suite("Opening a service database")
struct ServiceDatabaseTests {
  @Test func theDatabaseIsInWALModeOnEveryConnection() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)

    let readerMode = try database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    let writerMode = try database.pool.write { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    #expect(readerMode == "wal")
    #expect(writerMode == "wal")
  }

  @Test func writesAreSynchronousNormalWithTheConfiguredBusyTimeout() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binario-db-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let pool = try ServiceDatabase.open(
      at: directory.appendingPathComponent("service.sqlite").path,
      migrations: DatabaseMigrations(),
      busyTimeout: .milliseconds(2_500)
    )
    defer { try? pool.close() }

    let (synchronous, busyTimeout) = try pool.write { db in
      (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try Int.fetchOne(db, sql: "PRAGMA busy_timeout"))
    }
    #expect(synchronous == 1)  // NORMAL
    #expect(busyTimeout == 2_500)
  }

  @Test func aMemoryMapIsAskedForOnEveryConnectionOnlyWhenConfigured() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-mmap-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let mapped = try ServiceDatabase.open(
      at: folder.appendingPathComponent("mapped.sqlite").path,
      migrations: accountMigrations,
      memoryMapBytes: 1 << 26
    )
    #expect(try mapped.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == 1 << 26)
    #expect(try mapped.write { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == 1 << 26)
    let plain = try ServiceDatabase.open(at: folder.appendingPathComponent("plain.sqlite").path, migrations: accountMigrations)
    #expect(try plain.read { db in try Int.fetchOne(db, sql: "PRAGMA mmap_size") } == 0)
  }

  @Test func foreignKeysAreEnforced() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)

    #expect {
      try database.pool.write { db in try db.execute(sql: "INSERT INTO session (account_id) VALUES (42)") }
    } throws: { error in
      (error as? DatabaseError)?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
    }
    let foreignKeys = try database.pool.read { db in try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") }
    #expect(foreignKeys == true)
  }

  @Test func theParentFolderIsCreated() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("binario-db-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent("data/identity/identity.sqlite").path

    let pool = try ServiceDatabase.open(at: path, migrations: accountMigrations)
    try pool.close()

    #expect(FileManager.default.fileExists(atPath: path))
  }

  @Test func migrationsRunOnceInOrderAndReopeningAppliesOnlyNewOnes() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)
    #expect(try migrationRuns(database.pool) == ["v1-create-accounts", "v2-create-sessions"])
    try database.pool.close()

    let reopened = try ServiceDatabase.open(at: database.path, migrations: accountMigrations)
    #expect(try migrationRuns(reopened) == ["v1-create-accounts", "v2-create-sessions"])
    try reopened.close()

    let extended = accountMigrations.add("v3-add-email") { db in
      try db.execute(sql: "INSERT INTO migration_run VALUES ('v3-add-email')")
      try db.execute(sql: "ALTER TABLE account ADD COLUMN email TEXT")
    }
    let upgraded = try ServiceDatabase.open(at: database.path, migrations: extended)
    defer { try? upgraded.close() }
    #expect(try migrationRuns(upgraded) == ["v1-create-accounts", "v2-create-sessions", "v3-add-email"])
  }

  @Test func aDatabaseFromANewerBuildIsRefused() throws {
    let newer = accountMigrations.add("v3-add-email") { db in
      try db.execute(sql: "ALTER TABLE account ADD COLUMN email TEXT")
    }
    let database = try TemporaryDatabase(migrations: newer)
    try database.pool.close()

    #expect(throws: DatabaseOpeningError(path: database.path, reason: .newerDatabase(unknownMigrations: ["v3-add-email"]))) {
      try ServiceDatabase.open(at: database.path, migrations: accountMigrations)
    }
    #expect(throws: DatabaseOpeningError.self) {
      try ServiceDatabase.open(at: database.path, migrations: DatabaseMigrations().add("v1-create-accounts") { _ in })
    }
  }

  @Test func aMigrationInsertedBeforeAppliedOnesIsRefused() throws {
    let v1 = DatabaseMigrations().add("v1") { db in try db.execute(sql: "CREATE TABLE a (x)") }
    let database = try TemporaryDatabase(migrations: v1.add("v3") { db in try db.execute(sql: "CREATE TABLE c (x)") })
    try database.pool.close()

    let inserted =
      v1
      .add("v2") { db in try db.execute(sql: "CREATE TABLE b (x)") }
      .add("v3") { db in try db.execute(sql: "CREATE TABLE c (x)") }
    #expect(throws: DatabaseOpeningError(path: database.path, reason: .skippedMigrations(["v2"]))) {
      try ServiceDatabase.open(at: database.path, migrations: inserted)
    }
  }

  @Test func anIdentifierRegisteredTwiceIsRefused() throws {
    let twice = accountMigrations.add("v1-create-accounts") { _ in }

    #expect {
      try TemporaryDatabase(migrations: twice)
    } throws: { error in
      (error as? DatabaseOpeningError)?.reason == .duplicateMigration("v1-create-accounts")
    }
  }

  @Test func aFailingMigrationIsNamedAndRolledBackKeepingEarlierOnes() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)
    try database.pool.close()
    let broken = accountMigrations.add("v3-broken") { db in
      try db.execute(sql: "CREATE TABLE half_done (x)")
      try db.execute(sql: "THIS IS NOT SQL")
    }

    #expect {
      try ServiceDatabase.open(at: database.path, migrations: broken)
    } throws: { error in
      guard case .migrationFailed(let identifier, _) = (error as? DatabaseOpeningError)?.reason else { return false }
      return identifier == "v3-broken"
    }
    let pool = try ServiceDatabase.open(at: database.path, migrations: accountMigrations)
    defer { try? pool.close() }
    #expect(try migrationRuns(pool) == ["v1-create-accounts", "v2-create-sessions"])
    #expect(try pool.read { db in try db.tableExists("half_done") } == false)
  }

  @Test func aCommittedWriteIsReadBackAfterReopening() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)
    try database.pool.write { db in try db.execute(sql: "INSERT INTO account (id, name) VALUES (7, 'Ada')") }
    try database.pool.close()

    let reopened = try ServiceDatabase.open(at: database.path, migrations: accountMigrations)
    defer { try? reopened.close() }
    #expect(try reopened.read { db in try String.fetchOne(db, sql: "SELECT name FROM account WHERE id = 7") } == "Ada")
  }

  /// What a killed process leaves behind is its files as they were at the kill: a copy of them
  /// taken while the pool is still open, without closing or checkpointing, must hold the commit.
  @Test func aCommittedWriteIsInTheFilesBeforeThePoolCloses() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)
    try database.pool.write { db in try db.execute(sql: "INSERT INTO account (id, name) VALUES (7, 'Ada')") }

    let crashCopy = FileManager.default.temporaryDirectory.appendingPathComponent("binario-db-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: crashCopy) }
    try FileManager.default.createDirectory(at: crashCopy, withIntermediateDirectories: true)
    let copyPath = crashCopy.appendingPathComponent("copy.sqlite").path
    try FileManager.default.copyItem(atPath: database.path, toPath: copyPath)
    try FileManager.default.copyItem(atPath: database.path + "-wal", toPath: copyPath + "-wal")

    let recovered = try ServiceDatabase.open(at: copyPath, migrations: accountMigrations)
    defer { try? recovered.close() }
    #expect(try recovered.read { db in try String.fetchOne(db, sql: "SELECT name FROM account WHERE id = 7") } == "Ada")
  }

  @Test func aReadOnlyDatabaseReadsButNeverWritesOrMigrates() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)
    try database.pool.write { db in try db.execute(sql: "INSERT INTO account (id, name) VALUES (7, 'Ada')") }

    let readOnly = try ServiceDatabase.open(at: database.path, migrations: accountMigrations, readOnly: true)
    defer { try? readOnly.close() }
    #expect(try readOnly.read { db in try String.fetchOne(db, sql: "SELECT name FROM account") } == "Ada")
    #expect(throws: DatabaseError.self) {
      try readOnly.write { db in try db.execute(sql: "DELETE FROM account") }
    }

    let newer = accountMigrations.add("v3-add-email") { db in try db.execute(sql: "ALTER TABLE account ADD COLUMN email TEXT") }
    #expect(throws: DatabaseOpeningError(path: database.path, reason: .notMigrated(missingMigrations: ["v3-add-email"]))) {
      try ServiceDatabase.open(at: database.path, migrations: newer, readOnly: true)
    }
    try readOnly.close()
    try database.pool.close()
    let afterWriterClosed = try ServiceDatabase.open(at: database.path, migrations: accountMigrations, readOnly: true)
    defer { try? afterWriterClosed.close() }
    #expect(try afterWriterClosed.read { db in try String.fetchOne(db, sql: "SELECT name FROM account") } == "Ada")

    let missing = database.directory.appendingPathComponent("missing.sqlite").path
    #expect(throws: DatabaseOpeningError(path: missing, reason: .missingFile)) {
      try ServiceDatabase.open(at: missing, migrations: accountMigrations, readOnly: true)
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedWithItsPath() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binario-db-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("garbage.sqlite").path
    try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))

    #expect {
      try ServiceDatabase.open(at: path, migrations: accountMigrations)
    } throws: { error in
      guard let error = error as? DatabaseOpeningError, case .cannotOpen = error.reason else { return false }
      return error.path == path && error.description.contains(path)
    }
  }
}

@Suite("Temporary databases")
struct TemporaryDatabaseTests {
  @Test func removeDeletesTheFolder() throws {
    let database = try TemporaryDatabase(migrations: accountMigrations)
    #expect(FileManager.default.fileExists(atPath: database.path))

    try database.remove()

    #expect(!FileManager.default.fileExists(atPath: database.directory.path))
    try database.remove()
  }

  @Test func theFolderGoesWithTheLastReference() throws {
    var database: TemporaryDatabase? = try TemporaryDatabase(migrations: accountMigrations)
    let directory = try #require(database?.directory)
    #expect(FileManager.default.fileExists(atPath: directory.path))

    database = nil

    #expect(!FileManager.default.fileExists(atPath: directory.path))
  }

  @Test func eachTemporaryDatabaseIsFreshAndMigrated() async throws {
    let first = try TemporaryDatabase(migrations: accountMigrations)
    let second = try TemporaryDatabase(migrations: accountMigrations)
    try await first.pool.write { db in try db.execute(sql: "INSERT INTO account (name) VALUES ('Ada')") }

    #expect(first.path != second.path)
    #expect(try await second.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account") } == 0)
  }
}
