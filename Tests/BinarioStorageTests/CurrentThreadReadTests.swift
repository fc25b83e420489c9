import BinarioStorage
import Foundation
import GRDB
import Testing

private let placeMigrations = DatabaseMigrations()
  .add("v1-create-places") { db in
    try db.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
  }

@Suite("Reading on the current thread")
struct CurrentThreadReadTests {
  @Test func aReadFromAsyncCodeRunsOnTheCallersThreadAndSeesCommittedWrites() async throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    try await database.pool.write { db in
      try db.execute(sql: "INSERT INTO place (name) VALUES (?)", arguments: ["Duomo"])
    }

    let (names, readOnCaller) = try readNamesReportingTheThread(database.pool)
    #expect(names == ["Duomo"])
    #expect(readOnCaller)
  }

  @Test func theReadIsReadOnly() throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    #expect(throws: DatabaseError.self) {
      try database.pool.readOnCurrentThread { db in
        try db.execute(sql: "INSERT INTO place (name) VALUES ('Brera')")
      }
    }
    #expect(try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place") } == 0)
  }
}

/// The names in `place`, and whether the read ran on the thread that asked for it.
private func readNamesReportingTheThread(_ pool: DatabasePool) throws -> ([String], Bool) {
  let caller = pthread_self()
  return try pool.readOnCurrentThread { db in
    (try String.fetchAll(db, sql: "SELECT name FROM place"), pthread_equal(pthread_self(), caller) != 0)
  }
}
