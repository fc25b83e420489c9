import BinarioDevCertificates
import BinarioDomain
import BinarioEvents
import BinarioProto
import BinarioStorage
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRDB
import GRPCCore
import Logging
import Testing

/// The event stream over the Binario transport with mutual TLS, as services run it: a backlog
/// far over the transport's inbound buffer (64 messages), acknowledged every 50 events.
///
/// While the buffer is full, reading pauses on the whole connection; a subscription that waited
/// for an acknowledgement's answer on that connection before draining the stream waited until
/// keepalive closed it (10 events a second in events-bench). It must now catch up at once.
@Suite("Events over the Binario transport", .timeLimit(.minutes(1)))
struct EventStreamOverTLSTests {
  @Test("a long backlog is applied and acknowledged without stalling the stream")
  func longBacklog() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("events-tls-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try DevCertificateSet.write(to: folder)
    func tls(_ name: String) -> BinarioTLSConfiguration {
      .mutual(
        certificateChain: .file(folder.appendingPathComponent("\(name).pem").path),
        privateKey: .file(folder.appendingPathComponent("\(name).key").path),
        trustRoots: .file(folder.appendingPathComponent("ca.pem").path)
      )
    }
    let producer = try TemporaryDatabase(migrations: producerMigrations)
    let consumer = try TemporaryDatabase(migrations: consumerMigrations)
    let outbox = EventOutbox()
    let backlog = 2000
    try await producer.pool.write { db in
      for index in 1 ... backlog {
        try outbox.record(deleted("u\(index)"), subjects: ["u\(index)"], at: Date(), in: db)
      }
    }
    let log = EventLog(producer: "identity", database: producer.pool, outbox: outbox, consumers: ["telemetry"])
    let serverTransport = BinarioServerTransport(host: "127.0.0.1", port: 0, tls: tls("identity"))
    let server = GRPCServer(transport: serverTransport, services: [EventLogHandler(log: log)])
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.serve() }
      let port = try #require(try await serverTransport.listeningAddress().port)
      let client = GRPCClient(
        transport: try BinarioClientTransport(host: "127.0.0.1", port: port, serverHostname: "identity", tls: tls("telemetry"))
      )
      group.addTask { try await client.runConnections() }
      let pool = consumer.pool
      let subscription = EventSubscription(
        producer: "identity",
        client: Binario_Events_V1_EventLog.Client(wrapping: client),
        cursors: EventCursorStore(pool: pool),
        types: [],
        acknowledgeEvery: 50,
        logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
      ) { event in
        let userID = try event.payload(as: Binario_Identity_V1_AccountDeleted.self).userID
        try await pool.write { db in
          try db.execute(sql: "INSERT INTO erased (user_id, sequence) VALUES (?, ?)", arguments: [userID, event.position.sequence])
          try db.advanceEventCursor(to: event.position, at: Date())
        }
        return .applied
      }
      group.addTask { try await subscription.run() }
      await subscription.status.waitUntilCaughtUp(through: Int64(backlog))
      #expect(subscription.status.applied == backlog)
      // Everything is acknowledged (the last acknowledgement leaves with the catch-up).
      let acknowledged = try await eventually("the producer hears the last acknowledgement", timeout: .seconds(10)) { () -> Int64? in
        let progress = try await log.progress()
        return progress.first?.acknowledged == Int64(backlog) ? Int64(backlog) : nil
      }
      #expect(acknowledged == Int64(backlog))
      group.cancelAll()
      client.beginGracefulShutdown()
      server.beginGracefulShutdown()
    }
    let erased = try await consumer.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM erased") }
    #expect(erased == backlog)
  }
}
