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

@Suite("Async reads beside reads on the current thread")
struct ReaderQueueReadTests {
  /// The mix that hung identity under the load generator: many async reads (an event log served
  /// to its consumers) while calls read on the executor's threads, with fewer readers than calls.
  /// GRDB's own async read keeps its reader until the awaiting task resumes on a thread the
  /// synchronous reads block (this test hangs with it); ``readOnReaderQueue`` releases it first,
  /// so all of them finish.
  @Test(.timeLimit(.minutes(1))) func asyncAndCurrentThreadReadsTogetherAllFinish() async throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    try await database.pool.write { db in
      for name in ["Duomo", "Brera", "Navigli"] { try db.execute(sql: "INSERT INTO place (name) VALUES (?)", arguments: [name]) }
    }
    let pool = database.pool
    let counted = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0 ..< 2_000 {
        group.addTask {
          if index % 2 == 0 {
            return try await pool.readOnReaderQueue { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place") ?? 0 }
          }
          return try pool.readOnCurrentThread { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place") ?? 0 }
        }
      }
      return try await group.reduce(0, +)
    }
    #expect(counted == 2_000 * 3)
  }
}
