import BinarioStorage
import BinarioTracing
import GRDB
import InMemoryTracing
import Testing
import Tracing

private let noteMigrations = DatabaseMigrations()
  .add("v1-create-notes") { db in
    try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
  }

@Suite("A span around every transaction")
struct TracedDatabasePoolTests {
  /// Calls the synchronous overloads, which async code would not pick.
  static func sync<T>(_ body: () throws -> T) async rethrows -> T { try body() }

  @Test func everyTransactionIsAChildSpanOfTheCurrentOne() async throws {
    let database = try TemporaryDatabase(migrations: noteMigrations)
    let tracer = InMemoryTracer()
    let pool = TracedDatabasePool(database.pool, tracer: tracer)
    let call = tracer.startSpan("test.Notes/Add", context: .topLevel, ofKind: .server)
    try await ServiceContext.$current.withValue(call.context) {
      try await pool.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('a')") }
      try await Self.sync { try pool.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('b')") } }
      #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } == 2)
      #expect(try await Self.sync { try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM note") } } == 2)
      #expect(try pool.readOnCurrentThread { db in try String.fetchAll(db, sql: "SELECT text FROM note ORDER BY id") } == ["a", "b"])
    }
    call.end()

    let spans = tracer.finishedSpans.filter { $0.kind == .client }
    let file = database.path.split(separator: "/").last.map(String.init)!
    #expect(spans.map(\.operationName) == ["write \(file)", "write \(file)", "read \(file)", "read \(file)", "read \(file)"])
    for span in spans {
      #expect(span.traceID == call.context.inMemorySpanContext?.traceID)
      #expect(span.spanContext.parentSpanID == call.context.inMemorySpanContext?.spanID)
      #expect(span.attributes[SpanAttributeName.databaseSystem]?.toSpanAttribute() == "sqlite")
      #expect(span.attributes[SpanAttributeName.databaseNamespace]?.toSpanAttribute() == .string(file))
    }
    #expect(spans.map { $0.attributes[SpanAttributeName.databaseOperation]?.toSpanAttribute() } == ["write", "write", "read", "read", "read"])
  }

  @Test func aFailedTransactionIsAnErrorSpan() async throws {
    let database = try TemporaryDatabase(migrations: noteMigrations)
    let tracer = InMemoryTracer()
    let pool = TracedDatabasePool(database.pool, tracer: tracer)
    await #expect(throws: DatabaseError.self) {
      try await pool.write { db in try db.execute(sql: "INSERT INTO nowhere (text) VALUES ('a')") }
    }
    let span = try #require(tracer.finishedSpans.first)
    #expect(span.status?.code == .error)
    #expect(span.errors.count == 1)
  }
}
