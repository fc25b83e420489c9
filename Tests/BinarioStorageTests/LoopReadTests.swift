import BinarioStorage
import GRDB
import NIOCore
import NIOPosix
import Testing

private let placeMigrations = DatabaseMigrations()
  .add("v1-create-places") { db in
    try db.execute(sql: "CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
  }

/// Which connection served a read: the loop's own are labelled `<file>.loop`.
private func servedByLoopConnection(_ db: Database) -> Bool {
  db.configuration.label?.hasSuffix(".loop") == true
}

@Suite("Reads on an event loop's own connection")
struct LoopReadTests {
  @Test func aReadOnALoopUsesTheLoopsConnectionAndSeesCommittedWrites() async throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    let pool = TracedDatabasePool(database.pool)
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    for name in ["Duomo", "Brera"] {
      try await pool.write { db in try db.execute(sql: "INSERT INTO place (name) VALUES (?)", arguments: [name]) }
      let (count, onLoopConnection) = try await loop.submit {
        try pool.read { db in (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place") ?? 0, servedByLoopConnection(db)) }
      }.get()
      #expect(onLoopConnection)
      #expect(count == (name == "Duomo" ? 1 : 2))
    }
  }

  @Test func offALoopTheReadGoesThroughThePool() throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    let pool = TracedDatabasePool(database.pool)
    #expect(try pool.read { db in servedByLoopConnection(db) } == false)
  }

  @Test func aReadNestedInAnotherOnTheSameLoopGoesThroughThePool() async throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    let pool = TracedDatabasePool(database.pool)
    let (outer, inner) = try await MultiThreadedEventLoopGroup.singleton.next().submit {
      try pool.read { db in (servedByLoopConnection(db), try pool.read { servedByLoopConnection($0) }) }
    }.get()
    #expect(outer)
    #expect(!inner)
  }

  @Test func theLoopsConnectionIsReadOnly() async throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    let pool = TracedDatabasePool(database.pool)
    let refused = try await MultiThreadedEventLoopGroup.singleton.next().submit {
      do {
        try pool.read { db in
          #expect(servedByLoopConnection(db))
          try db.execute(sql: "INSERT INTO place (name) VALUES ('Navigli')")
        }
        return false
      } catch is DatabaseError {
        return true
      }
    }.get()
    #expect(refused)
    #expect(try pool.readOnCurrentThread { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM place") } == 0)
  }

  @Test func afterCloseReadsOnALoopNoLongerUseItsConnection() async throws {
    let database = try TemporaryDatabase(migrations: placeMigrations)
    let pool = TracedDatabasePool(database.pool)
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    #expect(try await loop.submit { try pool.read { servedByLoopConnection($0) } }.get())
    try pool.close()
    await #expect(throws: (any Error).self) {
      try await loop.submit { try pool.read { _ in () } }.get()
    }
  }
}
