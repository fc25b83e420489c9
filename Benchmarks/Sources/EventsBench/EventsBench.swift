import ArgumentParser
import BenchSupport
import BinarioEvents
import BinarioProto
import BinarioServiceKit
import BinarioStorage
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRDB
import GRPCCore
import Logging
import Synchronization

/// `events-bench`: integration events (Shared/Events) from one producer to five consumers, each a
/// service's certificate over the Binario transport with mutual TLS, each with its own SQLite
/// file in which it applies every event with its cursor, as the services do.
///
/// It reports the events per second the five consumers apply while the producer commits as fast
/// as it can (the baseline: the producer's commits alone, without the log), then the delay from
/// the producer's commit to each consumer's, at a steady rate, first on a quiet machine (the
/// baseline), then with the whole suite up and under a steady load through the gateway (target:
/// p99 under 100 ms). The producer and the consumers live in this process, on the same two
/// cores as the suite.
@main
struct EventsBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "events-bench",
    abstract: "One producer, five consumers: events applied per second, and commit → applied delay under load."
  )

  @Option(help: "Events in the throughput case.") var events = 3000
  @Option(help: "Events per second in the delay cases.") var rate: Double = 100
  @Option(help: "Seconds per delay case.") var seconds: Double = 10
  @Option(help: "Clients keeping the suite busy through the gateway in the loaded case.") var loadClients = 8
  @Option(help: "The p99 target for commit → applied, in milliseconds.") var targetMilliseconds: Double = 100

  static let consumers = ["scheduling", "geo-offers", "telemetry", "ticketing", "dispatch"]

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  func measure() async throws {
    try await RunningSuite.with { suite in
      for service in ["scheduling", "geo-offers", "telemetry", "ticketing", "dispatch"] {
        try await suite.waitUntilTheGatewaySeesServing(service)
      }
      let folder = suite.folder.appendingPathComponent("events-bench")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let bench = try Bench(folder: folder, certificates: suite.certificates.path, caFile: suite.caFile)
      try await bench.running { run in
        Output.line(
          "events-bench: 1 producer → \(Self.consumers.count) consumers over mutual TLS, each applying with its cursor in its own SQLite file"
        )
        Output.line()
        // Throughput.
        let plain = try await run.commitPlain(events)
        let (applied, elapsed) = try await run.commitAsFastAsPossible(events)
        Output.line("throughput (\(events) events)")
        Output.line(String(format: "  baseline: producer commits alone         %8.0f /s", plain))
        Output.line(String(format: "  producer commits with the event          %8.0f /s", Double(events) / applied))
        Output.line(
          String(
            format: "  events applied by all five consumers     %8.0f /s  (%0.0f applications/s)",
            Double(events) / elapsed,
            Double(events * Self.consumers.count) / elapsed
          )
        )
        Output.line()
        // Delay, quiet then loaded.
        let quiet = try await run.paced(rate: rate, seconds: seconds)
        Output.line(String(format: "delay commit → applied at %.0f events/s, %.0f s", rate, seconds))
        Output.line(Self.row("baseline: quiet machine", quiet))
        let (loaded, loadCalls) = try await suite.withGatewayConnection { connection in
          try await SuiteLoad(connection: connection, clients: loadClients).during { try await run.paced(rate: rate, seconds: seconds) }
        }
        Output.line(Self.row(String(format: "suite under load (%.0f calls/s)", loadCalls), loaded))
        let p99 = loaded.percentile(0.99) * 1000
        Output.line()
        Output.line(
          String(format: "p99 under load: %.1f ms (target %.0f ms): %@", p99, targetMilliseconds, p99 < targetMilliseconds ? "met" : "missed")
        )
      }
    }
  }

  static func row(_ name: String, _ delays: Delays) -> String {
    String(
      format: "  %-40@ p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d applications)",
      name,
      delays.percentile(0.5) * 1000,
      delays.percentile(0.99) * 1000,
      delays.percentile(1) * 1000,
      delays.count
    )
  }
}

/// Commit → applied delays, in seconds.
struct Delays: Sendable {
  var values: [Double]
  var count: Int { values.count }

  func percentile(_ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((Double(sorted.count) * fraction).rounded(.up)) - 1
    return sorted[min(sorted.count - 1, max(0, rank))]
  }
}

/// The producer's database and log, and the consumers' databases.
struct Bench: Sendable {
  let producer: DatabasePool
  let outbox = EventOutbox()
  let consumers: [(name: String, pool: DatabasePool)]
  let certificates: String
  let caFile: String

  init(folder: URL, certificates: String, caFile: String) throws {
    self.producer = try ServiceDatabase.open(
      at: folder.appendingPathComponent("producer.sqlite").path,
      migrations: DatabaseMigrations()
        .add("v1-log", EventSchema.createLog)
        .add("v1-change") { db in try db.execute(sql: "CREATE TABLE change (id INTEGER PRIMARY KEY, what TEXT NOT NULL)") }
    )
    self.consumers = try EventsBench.consumers.map { name in
      let pool = try ServiceDatabase.open(
        at: folder.appendingPathComponent("\(name).sqlite").path,
        migrations: DatabaseMigrations()
          .add("v1-cursors", EventSchema.createCursors)
          .add("v1-applied") { db in try db.execute(sql: "CREATE TABLE applied (user_id TEXT PRIMARY KEY)") }
      )
      return (name, pool)
    }
    self.certificates = certificates
    self.caFile = caFile
  }

  func tls(_ name: String) -> BinarioTLSConfiguration {
    .mutual(certificateChain: .file("\(certificates)/\(name).pem"), privateKey: .file("\(certificates)/\(name).key"), trustRoots: .file(caFile))
  }

  /// Serves the log as identity would, subscribes the five, runs `body`, and stops them all.
  func running(_ body: (BenchRun) async throws -> Void) async throws {
    let log = EventLog(producer: "identity", database: producer, outbox: outbox, consumers: EventsBench.consumers)
    let serverTransport = BinarioServerTransport(host: "127.0.0.1", port: 0, tls: tls("identity"))
    let server = GRPCServer(transport: serverTransport, services: [EventLogHandler(log: log)])
    let run = BenchRun(bench: self)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.serve() }
      let port = try await serverTransport.listeningAddress().port!
      var clients: [GRPCClient<BinarioClientTransport>] = []
      var subscriptions: [EventSubscription<BinarioClientTransport>] = []
      for consumer in consumers {
        let client = GRPCClient(
          transport: try BinarioClientTransport(host: "127.0.0.1", port: port, serverHostname: "identity", tls: tls(consumer.name))
        )
        group.addTask { try await client.runConnections() }
        clients.append(client)
        let pool = consumer.pool
        let subscription = EventSubscription(
          producer: "identity",
          client: Binario_Events_V1_EventLog.Client(wrapping: client),
          cursors: EventCursorStore(pool: pool),
          types: [Binario_Identity_V1_AccountDeleted.protoMessageName],
          logger: Logger(label: "events-bench", factory: { _ in SwiftLogNoOpLogHandler() })
        ) { event in
          let userID = try event.payload(as: Binario_Identity_V1_AccountDeleted.self).userID
          try await pool.write { db in
            try db.execute(sql: "INSERT INTO applied (user_id) VALUES (?)", arguments: [userID])
            try db.advanceEventCursor(to: event.position, at: Date())
          }
          run.applied(userID)
          return .applied
        }
        subscriptions.append(subscription)
        group.addTask { try await subscription.run() }  // until cancelled: no service group here
      }
      run.subscriptions = subscriptions
      defer {
        group.cancelAll()
        for client in clients { client.beginGracefulShutdown() }
        server.beginGracefulShutdown()
      }
      try await body(run)
    }
  }
}

/// One measuring session: what the producer commits and when each consumer applies it.
final class BenchRun: @unchecked Sendable {
  // `subscriptions` is set once, before `body` runs, and only read afterwards.
  var subscriptions: [EventSubscription<BinarioClientTransport>] = []
  let bench: Bench
  /// Each event's commit, by the user id it carries; each application's delay.
  private let state = Mutex<(committed: [String: ContinuousClock.Instant], delays: [Double], next: Int, sequence: Int64)>(([:], [], 0, 0))

  init(bench: Bench) { self.bench = bench }

  func applied(_ userID: String) {
    let now = ContinuousClock.now
    state.withLock { state in
      if let committed = state.committed[userID] {
        let delay = now - committed
        state.delays.append(Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
      }
    }
  }

  /// The producer's commits of a plain change, without the log: commits per second.
  func commitPlain(_ count: Int) async throws -> Double {
    let start = ContinuousClock.now
    for index in 0 ..< count {
      try await bench.producer.write { db in try db.execute(sql: "INSERT INTO change (what) VALUES (?)", arguments: ["plain \(index)"]) }
    }
    return Double(count) / seconds(since: start)
  }

  /// `count` events committed one after another as fast as the producer can; returns the seconds
  /// the producer took and until the five had applied them all.
  func commitAsFastAsPossible(_ count: Int) async throws -> (producer: Double, all: Double) {
    let start = ContinuousClock.now
    var last: Int64 = 0
    for _ in 0 ..< count { last = try await commitEvent() }
    let producer = seconds(since: start)
    for subscription in subscriptions { await subscription.status.waitUntilCaughtUp(through: last) }
    state.withLock { $0.delays = [] }
    return (producer, seconds(since: start))
  }

  /// Events at `rate` per second for `seconds`; the delays of every application.
  func paced(rate: Double, seconds duration: Double) async throws -> Delays {
    state.withLock { $0.delays = [] }
    let start = ContinuousClock.now
    let count = Int(rate * duration)
    var last: Int64 = 0
    for index in 0 ..< count {
      // The run's pace: each event at its slot, not a wait for anything.
      try await Task.sleep(until: start + .seconds(Double(index) / rate))
      last = try await commitEvent()
    }
    for subscription in subscriptions { await subscription.status.waitUntilCaughtUp(through: last) }
    return Delays(values: state.withLock { $0.delays })
  }

  /// One change and its event, committed; its sequence in the log.
  private func commitEvent() async throws -> Int64 {
    let userID = state.withLock { state -> String in
      state.next += 1
      return "u\(state.next)"
    }
    let outbox = bench.outbox
    return try await bench.producer.write { [self] db -> Int64 in
      try db.execute(sql: "INSERT INTO change (what) VALUES (?)", arguments: ["deleted \(userID)"])
      try outbox.record(Binario_Identity_V1_AccountDeleted.with { $0.userID = userID }, subjects: [userID], at: Date(), in: db)
      let sequence = try Int64.fetchOne(db, sql: "SELECT max(sequence) FROM event_log") ?? 0
      // Marked as the transaction ends, just before its commit: no consumer can apply it
      // sooner, and each delay counts the commit itself too.
      self.state.withLock { $0.committed[userID] = .now }
      return sequence
    }
  }

  private func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}

/// The suite's usual load while the delays are measured: clients reading departure boards and
/// journeys through the gateway, one call after another.
struct SuiteLoad: Sendable {
  let connection: GRPCClient<BinarioClientTransport>
  let clients: Int

  /// Runs `body` with the load on; its result and the load's calls per second.
  func during<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> (Result, Double) {
    let scheduling = Binario_Scheduling_V1_Scheduling.Client(wrapping: connection)
    let counters = LoadCounters()
    let stations = ["MI_CENTRALE", "MI_GARIBALDI", "MI_CADORNA", "BERGAMO", "MONZA", "COMO_SG"]
    return try await withThrowingTaskGroup(of: Void.self) { group in
      for client in 0 ..< clients {
        group.addTask {
          var index = client
          while !counters.stop.load(ordering: .relaxed) {
            index += 1
            _ = try? await scheduling.getDeparturesBoard(
              .with {
                $0.stationID = stations[index % stations.count]
                $0.limit = 10
              }
            )
            counters.calls.add(1, ordering: .relaxed)
          }
        }
      }
      let start = ContinuousClock.now
      let before = counters.calls.load(ordering: .relaxed)
      let result = try await body()
      let elapsed = ContinuousClock.now - start
      let made = counters.calls.load(ordering: .relaxed) - before
      counters.stop.store(true, ordering: .relaxed)
      try await group.waitForAll()
      return (result, Double(made) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
    }
  }
}

/// The load's tally and its stop, shared by its clients.
final class LoadCounters: Sendable {
  let calls = Atomic<Int>(0)
  let stop = Atomic<Bool>(false)
}
