import BinarioDomain
import BinarioEvents
import BinarioProto
import BinarioStorage
import BinarioTestSupport
import Foundation
import GRDB
import GRPCCore
import GRPCInProcessTransport
import Logging
import ServiceLifecycle
import Synchronization
import Testing

/// A producer's database: the log, and a table its changes go to.
let producerMigrations = DatabaseMigrations()
  .add("v1-log", EventSchema.createLog)
  .add("v2-account") { db in try db.execute(sql: "CREATE TABLE account (id TEXT PRIMARY KEY NOT NULL)") }

/// A consumer's database: cursors, and a table each applied event adds a row to (its id unique,
/// so an event applied twice would fail loudly rather than hide).
let consumerMigrations = DatabaseMigrations()
  .add("v1-cursors", EventSchema.createCursors)
  .add("v2-erased") { db in try db.execute(sql: "CREATE TABLE erased (user_id TEXT PRIMARY KEY NOT NULL, sequence INTEGER NOT NULL)") }

func deleted(_ userID: String) -> Binario_Identity_V1_AccountDeleted {
  .with { $0.userID = userID }
}

/// Deletes the account `userID` in the producer's database, recording `AccountDeleted` with it.
func deleteAccount(_ userID: String, _ pool: DatabasePool, _ outbox: EventOutbox, at time: Date = Date()) async throws {
  try await pool.write { db in
    try db.execute(sql: "DELETE FROM account WHERE id = ?", arguments: [userID])
    try outbox.record(deleted(userID), subjects: [userID], at: time, in: db)
  }
}

@Suite("The event log (a producer's side)")
struct EventLogStoreTests {
  @Test("an event exists if and only if the change it reports committed")
  func recordedWithTheChange() async throws {
    let database = try TemporaryDatabase(migrations: producerMigrations)
    let outbox = EventOutbox()
    struct Refused: Error {}
    await #expect(throws: Refused.self) {
      try await database.pool.write { db in
        try db.execute(sql: "INSERT INTO account (id) VALUES ('u1')")
        try outbox.record(deleted("u1"), subjects: ["u1"], at: Date(), in: db)
        throw Refused()
      }
    }
    try await deleteAccount("u2", database.pool, outbox, at: Date(timeIntervalSince1970: 1_800_000_000))
    let batch = try await EventLogStore(pool: database.pool).events(after: 0, types: [], limit: 10)
    #expect(batch.events.count == 1)
    let event = try #require(batch.events.first)
    #expect(event.type == "binario.identity.v1.AccountDeleted")
    #expect(event.subjects == ["u2"])
    #expect(event.occurredAt == Date(timeIntervalSince1970: 1_800_000_000))
    #expect(try Binario_Identity_V1_AccountDeleted(serializedBytes: event.payload).userID == "u2")
    // The rolled-back event's sequence is not given out again only because nothing committed it.
    #expect(batch.head == event.sequence)
  }

  @Test("a read after a cursor gives the types asked, oldest first, with the head of the whole log")
  func readAfterACursor() async throws {
    let database = try TemporaryDatabase(migrations: producerMigrations)
    let outbox = EventOutbox()
    try await database.pool.write { db in
      try outbox.record(deleted("a"), subjects: ["a"], at: Date(), in: db)
      try outbox.record(Binario_Identity_V1_AccountDisabled.with { $0.userID = "b" }, subjects: ["b"], at: Date(), in: db)
      try outbox.record(deleted("c"), subjects: ["c"], at: Date(), in: db)
    }
    let store = EventLogStore(pool: database.pool)
    let deletions = try await store.events(after: 0, types: ["binario.identity.v1.AccountDeleted"], limit: 10)
    #expect(deletions.events.map(\.subjects) == [["a"], ["c"]])
    #expect(deletions.head == 3)
    let afterFirst = try await store.events(after: 1, types: [], limit: 1)
    #expect(afterFirst.events.map(\.sequence) == [2])
  }

  @Test("pruning waits for every consumer's acknowledgement, until the retention runs out")
  func pruning() async throws {
    let database = try TemporaryDatabase(migrations: producerMigrations)
    let outbox = EventOutbox()
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    for (index, user) in ["a", "b", "c"].enumerated() {
      try await deleteAccount(user, database.pool, outbox, at: start.addingTimeInterval(Double(index)))
    }
    let store = EventLogStore(pool: database.pool)
    try await store.acknowledge(consumer: "telemetry", through: 2, at: start)
    try await store.acknowledge(consumer: "dispatch", through: 1, at: start)
    // An acknowledgement never moves back.
    try await store.acknowledge(consumer: "dispatch", through: 0, at: start)
    let consumers = ["telemetry", "dispatch"]
    let hourLater = start.addingTimeInterval(3600)
    #expect(try await store.prune(consumers: consumers, now: hourLater, keepAcknowledged: 60, retention: 86400) == 1)
    var batch = try await store.events(after: 0, types: [], limit: 10)
    #expect(batch.events.map(\.sequence) == [2, 3])
    #expect(batch.prunedThrough == 1)
    // Kept while acknowledged only recently enough...
    #expect(try await store.prune(consumers: consumers + ["scheduling"], now: hourLater, keepAcknowledged: 60, retention: 86400) == 0)
    // ...and gone, acknowledged or not, once older than the retention.
    #expect(try await store.prune(consumers: consumers, now: start.addingTimeInterval(90000), keepAcknowledged: 60, retention: 86400) == 2)
    batch = try await store.events(after: 0, types: [], limit: 10)
    #expect(batch.events.isEmpty)
    #expect(batch.prunedThrough == 3)
    // Sequences are never given out again.
    try await deleteAccount("d", database.pool, outbox)
    #expect(try await store.events(after: 3, types: [], limit: 10).events.map(\.sequence) == [4])
  }
}

@Suite("A consumer's cursor")
struct EventCursorTests {
  @Test("an event applied twice takes effect once: the second transaction is rolled back")
  func appliedOnce() async throws {
    let database = try TemporaryDatabase(migrations: consumerMigrations)
    let position = EventPosition(producer: "identity", sequence: 7)
    func apply(_ user: String) async throws {
      try await database.pool.write { db in
        try db.execute(sql: "INSERT INTO erased (user_id, sequence) VALUES (?, ?)", arguments: [user, position.sequence])
        try db.advanceEventCursor(to: position, at: Date())
      }
    }
    try await apply("u1")
    let replay = await #expect(throws: EventAlreadyApplied.self) { try await apply("u2") }
    #expect(replay?.position == position)
    let users = try await database.pool.read { db in try String.fetchAll(db, sql: "SELECT user_id FROM erased") }
    #expect(users == ["u1"])
    #expect(try await EventCursorStore(pool: database.pool).sequence(of: "identity") == 7)
  }
}

/// A producer served in process and a consumer following it, as two services would.
final class EventPair: Sendable {
  let producer = try! TemporaryDatabase(migrations: producerMigrations)
  let consumer = try! TemporaryDatabase(migrations: consumerMigrations)
  let outbox = EventOutbox()
  let clock = ManualClock()
  let log: EventLog

  init(consumers: [String] = ["telemetry"], retention: TimeInterval = EventLog.defaultRetention) {
    self.log = EventLog(
      producer: "identity",
      database: producer.pool,
      outbox: outbox,
      consumers: consumers,
      clock: clock,
      keepAcknowledged: 0,
      retention: retention
    )
  }

  /// Runs `body` with the log served to a caller whose certificate says `caller`.
  func serving<Result: Sendable>(
    to caller: String = "spiffe://binario/telemetry",
    _ body: (Binario_Events_V1_EventLog.Client<InProcessTransport.Client>) async throws -> Result
  ) async throws -> Result {
    let transport = InProcessTransport()
    let handler = EventLogHandler(log: log, peerIdentity: { _ in caller })
    return try await withGRPCServer(transport: transport.server, services: [handler]) { _ in
      try await withGRPCClient(transport: transport.client) { client in
        try await body(Binario_Events_V1_EventLog.Client(wrapping: client))
      }
    }
  }

  /// A subscription whose handler erases the user in the consumer's database with the cursor.
  func subscription(
    _ client: Binario_Events_V1_EventLog.Client<InProcessTransport.Client>
  ) -> EventSubscription<InProcessTransport.Client> {
    let pool = consumer.pool
    return EventSubscription(
      producer: "identity",
      client: client,
      cursors: EventCursorStore(pool: pool),
      types: [Binario_Identity_V1_AccountDeleted.protoMessageName],
      clock: clock,
      backoff: Backoff(initial: .milliseconds(10), maximum: .milliseconds(50)),
      logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    ) { event in
      let userID = try event.payload(as: Binario_Identity_V1_AccountDeleted.self).userID
      try await pool.write { db in
        try db.execute(sql: "INSERT INTO erased (user_id, sequence) VALUES (?, ?)", arguments: [userID, event.position.sequence])
        try db.advanceEventCursor(to: event.position, at: Date())
      }
      return .applied
    }
  }

  var erased: [String] {
    get throws { try consumer.pool.read { db in try String.fetchAll(db, sql: "SELECT user_id FROM erased ORDER BY sequence") } }
  }
}

@Suite("Events from a producer to a consumer", .timeLimit(.minutes(1)))
struct EventStreamTests {
  @Test("the backlog, then each event as it commits, applied once across a restart of the consumer")
  func exactlyOnceAcrossRestarts() async throws {
    let pair = EventPair()
    try await deleteAccount("u1", pair.producer.pool, pair.outbox)
    try await deleteAccount("u2", pair.producer.pool, pair.outbox)
    try await pair.serving { client in
      let first = pair.subscription(client)
      let running = Task { try await first.runUntilCancelled() }
      await first.status.waitUntilCaughtUp(through: 2)
      // Live: committed while the stream is open; a type not followed still moves the cursor.
      try await deleteAccount("u3", pair.producer.pool, pair.outbox)
      try await pair.producer.pool.write { db in
        try pair.outbox.record(Binario_Identity_V1_AccountDisabled.with { $0.userID = "u4" }, subjects: ["u4"], at: Date(), in: db)
      }
      await first.status.waitUntilCaughtUp(through: 4)
      running.cancel()
      _ = await running.result

      // Down meanwhile: the next subscription starts after the stored cursor.
      try await deleteAccount("u5", pair.producer.pool, pair.outbox)
      let second = pair.subscription(client)
      let again = Task { try await second.runUntilCancelled() }
      await second.status.waitUntilCaughtUp(through: 5)
      // Its acknowledgement goes out beside the stream, not before the status says caught up:
      // wait until the producer has it, or cancelling may drop it (the next connection's
      // request would acknowledge it again, but this test makes none).
      _ = try await eventually("the producer has the acknowledgement through 5") {
        try await pair.log.progress().first { $0.acknowledged == 5 }
      }
      again.cancel()
      _ = await again.result
      #expect(second.status.applied == 1)
    }
    #expect(try pair.erased == ["u1", "u2", "u3", "u5"])
    #expect(try await EventCursorStore(pool: pair.consumer.pool).sequence(of: "identity") == 5)
    // Acknowledged: pruning may now forget them.
    let progress = try await pair.log.progress()
    #expect(progress.map(\.consumer) == ["telemetry"] && progress.map(\.acknowledged) == [5] && progress.map(\.behind) == [0])
    #expect(try await pair.log.prune() == 5)
  }

  @Test("a consumer away longer than the retention is told what it lost, and counts it")
  func lostEvents() async throws {
    let pair = EventPair(retention: 60)
    try await deleteAccount("u1", pair.producer.pool, pair.outbox, at: pair.clock.now())
    try await deleteAccount("u2", pair.producer.pool, pair.outbox, at: pair.clock.now())
    pair.clock.advance(by: 120)
    #expect(try await pair.log.prune() == 2)
    try await deleteAccount("u3", pair.producer.pool, pair.outbox, at: pair.clock.now())
    try await pair.serving { client in
      let subscription = pair.subscription(client)
      let running = Task { try await subscription.runUntilCancelled() }
      await subscription.status.waitUntilCaughtUp(through: 3)
      running.cancel()
      _ = await running.result
      #expect(subscription.status.lost == 2)
    }
    #expect(try pair.erased == ["u3"])
    #expect(try await EventCursorStore(pool: pair.consumer.pool).lost(from: "identity") == 2)
  }

  @Test("a producer restored from an older backup: its consumer notices, says so, and reads the producer's new events")
  func producerWentBackInTime() async throws {
    let pair = EventPair()
    for user in ["u1", "u2", "u3", "u4"] { try await deleteAccount(user, pair.producer.pool, pair.outbox) }
    try await pair.serving { client in
      let subscription = pair.subscription(client)
      let running = Task { try await subscription.runUntilCancelled() }
      await subscription.status.waitUntilCaughtUp(through: 4)
      running.cancel()
      _ = await running.result
    }

    // The producer as its backup had it, taken after its second event.
    let restored = try TemporaryDatabase(migrations: producerMigrations)
    let restoredOutbox = EventOutbox()
    for user in ["u1", "u2"] { try await deleteAccount(user, restored.pool, restoredOutbox) }
    let restoredLog = EventLog(producer: "identity", database: restored.pool, outbox: restoredOutbox, consumers: ["telemetry"], clock: pair.clock)
    let transport = InProcessTransport()
    let handler = EventLogHandler(log: restoredLog, peerIdentity: { _ in "spiffe://binario/telemetry" })
    let subscription = try await withGRPCServer(transport: transport.server, services: [handler]) { _ in
      try await withGRPCClient(transport: transport.client) { client in
        let subscription = pair.subscription(Binario_Events_V1_EventLog.Client(wrapping: client))
        let running = Task { try await subscription.runUntilCancelled() }
        await subscription.status.waitUntilCaughtUp(through: 2)
        // Its next event is numbered 3 again: the consumer must apply it.
        try await deleteAccount("u5", restored.pool, restoredOutbox)
        await subscription.status.waitUntilCaughtUp(through: 3)
        running.cancel()
        _ = await running.result
        return subscription
      }
    }
    #expect(subscription.status.rewound == 2)
    #expect(try Set(pair.erased) == ["u1", "u2", "u3", "u4", "u5"])
    #expect(try await EventCursorStore(pool: pair.consumer.pool).sequence(of: "identity") == 3)
    // Nothing beyond the restored log's head was acknowledged to it.
    #expect(try await restoredLog.progress().map(\.acknowledged) == [3])
  }

  @Test("closing the log (graceful shutdown) ends its open streams at once, and any opened later")
  func closingEndsStreams() async throws {
    let pair = EventPair()
    try await pair.serving { client in
      try await client.watchEvents(.init()) { response in
        var messages = response.messages.makeAsyncIterator()
        let first = try await messages.next()
        guard case .caughtUp = first?.kind else {
          Issue.record("expected CaughtUp first, got \(String(describing: first))")
          return
        }
        pair.outbox.close()
        #expect(try await messages.next() == nil)
      }
      let later = try await client.watchEvents(.init()) { response in
        try await response.messages.reduce(0) { count, _ in count + 1 }
      }
      #expect(later == 0)
    }
  }

  @Test("a consumer waiting to retry a producer that is away stops without an error on a graceful shutdown")
  func gracefulStopWhileRetrying() async throws {
    let pair = EventPair()
    let lines = CapturedLogLines()
    try await pair.serving(to: "spiffe://binario/stranger") { client in
      let subscription = EventSubscription(
        producer: "identity",
        client: client,
        cursors: EventCursorStore(pool: pair.consumer.pool),
        types: [Binario_Identity_V1_AccountDeleted.protoMessageName],
        clock: pair.clock,
        // Refused, it waits an hour before trying again: the shutdown comes while it waits.
        backoff: Backoff(initial: .seconds(3600), maximum: .seconds(3600)),
        logger: Logger(label: "test", factory: { _ in lines.handler })
      ) { _ in .applied }
      let group = ServiceGroup(services: [subscription], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
      try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        _ = try await eventually("the subscription was refused and waits to retry") {
          lines.all.contains { $0.contains("retrying") } ? true : nil
        }
        await group.triggerGracefulShutdown()
        // Threw CancellationError (the process "stopped with an error") before.
        try await tasks.waitForAll()
      }
    }
  }

  @Test("a service the producer does not list is refused")
  func strangersRefused() async throws {
    let pair = EventPair()
    try await pair.serving(to: "spiffe://binario/geo-offers") { client in
      let error = await #expect(throws: RPCError.self) {
        try await client.acknowledgeEvents(.with { $0.throughSequence = 1 })
      }
      #expect(error?.code == .permissionDenied)
    }
  }
}

extension EventSubscription {
  /// `run()` outside a service group (no graceful shutdown comes): until the task is cancelled.
  func runUntilCancelled() async throws {
    try await self.run()
  }
}

/// Log lines as written, for a test to wait on.
final class CapturedLogLines: Sendable {
  private let lines = Mutex<[String]>([])
  var all: [String] { self.lines.withLock { $0 } }
  var handler: any LogHandler { Handler(lines: self) }

  fileprivate func append(_ line: String) { self.lines.withLock { $0.append(line) } }

  private struct Handler: LogHandler {
    let lines: CapturedLogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { self.metadata[key] }
      set { self.metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      self.lines.append("\(event.level) \(event.message)")
    }
  }
}
