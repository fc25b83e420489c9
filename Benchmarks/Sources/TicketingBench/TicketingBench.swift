import ArgumentParser
import BenchSupport
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Synchronization

/// `ticketing-bench`: purchases per second through the gateway, each a quote and a purchase with
/// a new idempotency key (a charge recorded and the tickets committed), for a zone ticket (no
/// other service asked but identity for the card) and a station ticket (scheduling asked for the
/// run at the quote, told to make the holder a follower at the purchase); then the wallet (four
/// station tickets, each run's live state asked of scheduling). The baseline in the same run is
/// ticketing's cheapest call through the same path, `GetValidationKeys` (no database, no peer).
///
/// identity, scheduling, ticketing and the gateway are the executables built beside this one,
/// started as `scripts/run-local.sh` starts them; this process is every client.
@main
struct TicketingBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "ticketing-bench",
    abstract: "Purchases per second through the gateway, and the wallet's rate and p99 with the live runs."
  )

  @Option(help: "Seconds per case.") var seconds: Double = 4
  @Option(help: "Calls (or purchases) in flight.") var inFlight: [Int] = [1, 16]
  @Option(help: "Only the cases whose name starts with one of these (e.g. \"purchase: zone\"), to profile one.") var only: [String] = []

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  func measure() async throws {
    let flags = RunningSuite.ExtraFlags(identity: ["--access-token-lifetime", "3600"], gateway: ["--rate-limit", "off"])
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.waitUntilTheGatewaySeesServing("ticketing")
      let pids = suite.processIdentifiers
      Output.line(
        "ticketing-bench: gateway, ticketing, scheduling, identity as their own processes; this process the clients; "
          + "\(ProcessInfo.processInfo.activeProcessorCount) cores; TLS on loopback"
      )
      let client = GRPCClient(
        transport: try BinarioClientTransport(
          host: "127.0.0.1",
          port: suite.gatewayPort,
          serverHostname: "localhost",
          tls: .client(trustRoots: .file(suite.caFile))
        )
      )
      try await withThrowingDiscardingTaskGroup { group in
        group.addTask { try await client.runConnections() }
        defer { client.beginGracefulShutdown() }
        let identity = Binario_Identity_V1_Identity.Client(wrapping: client)
        let tickets = Binario_Ticketing_V1_Tickets.Client(wrapping: client)
        let scheduling = Binario_Scheduling_V1_Scheduling.Client(wrapping: client)
        let admin = try await identity.signInAdmin()
        let buyer = try await Self.buyer(identity, email: "buyer@example.com", admin: admin)
        let holder = try await Self.buyer(identity, email: "holder@example.com", admin: admin)
        let runs = try await Self.upcomingRuns(scheduling, count: 4)
        for (index, run) in runs.enumerated() {
          _ = try await Self.purchase(tickets, buyer: holder, key: "wallet-\(index)", product: Self.station(run))
        }
        let processes = pids.filter { ["gateway", "ticketing", "scheduling", "identity"].contains($0.key) }
        let keys = KeyCounter()

        Output.line()
        Output.line("## Through the gateway, \(seconds) s per case (CPU: µs per call, or per purchase of two calls)")
        Output.line("| case | in flight | per s | p50 µs | p99 µs | CPU: ticketing | gateway | identity | scheduling |")
        Output.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        let cases: [(String, @Sendable () async throws -> Void)] = [
          ("GetValidationKeys (baseline)", { _ = try await tickets.getValidationKeys(.init()) }),
          ("purchase: zone ticket", { _ = try await Self.purchase(tickets, buyer: buyer, key: keys.next(), product: Self.zone) }),
          (
            "purchase: station ticket",
            { _ = try await Self.purchase(tickets, buyer: buyer, key: keys.next(), product: Self.station(runs[0])) }
          ),
          ("ListWallet (4 live runs)", { _ = try await tickets.listWallet(.init(), metadata: bearer(holder)) }),
        ]
        for concurrency in inFlight {
          for (name, call) in cases where only.isEmpty || only.contains(where: { name.hasPrefix($0) }) {
            let result = await AsyncCallLoad.run(
              concurrency: concurrency,
              for: .milliseconds(Int64(seconds * 1000)),
              measuring: processes,
              call: call
            )
            if let failure = result.firstFailure { Output.line("warning: \(result.failures) failed (\(name)): \(failure)") }
            func cpu(_ process: String) -> String { result.cpuPerCall(process).map { String(Int($0.rounded())) } ?? "-" }
            Output.line(
              "| \(name) | \(concurrency) | \(Int(result.callsPerSecond)) | \(Int(result.percentile(0.5))) | \(Int(result.percentile(0.99))) "
                + "| \(cpu("ticketing")) | \(cpu("gateway")) | \(cpu("identity")) | \(cpu("scheduling")) |"
            )
          }
        }
        let memory = ["ticketing", "gateway"].compactMap { name -> String? in
          guard let pid = pids[name], let figures = ProcessMemory.of(processIdentifier: pid) else { return nil }
          return "\(name) \(ProcessMemory.mebibytes(figures.residentBytes)) (peak \(ProcessMemory.mebibytes(figures.peakResidentBytes)))"
        }
        Output.line()
        Output.line("resident memory at the end: \(memory.joined(separator: "; "))")
      }
    }
  }

  static func buyer(
    _ identity: IdentityClient,
    email: String,
    admin: Binario_Identity_V1_TokenPair
  ) async throws -> Binario_Identity_V1_TokenPair {
    let tokens = try await identity.signUp(email: email, admin: admin)
    try await identity.addCard(to: tokens)
    return tokens
  }

  /// Runs leaving Milano Centrale in 15 minutes or more: (run, the next stop's station).
  static func upcomingRuns(
    _ scheduling: Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>,
    count: Int
  ) async throws
    -> [(Binario_Scheduling_V1_RunRef, String)]
  {
    let board = try await scheduling.getDeparturesBoard(
      .with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 50
      }
    )
    let runs = board.departures
      .filter { $0.run.stops.count >= 2 && $0.run.stops[0].scheduledDeparture.date > Date().addingTimeInterval(900) }
      .prefix(count)
      .map { ($0.run.run, $0.run.stops[1].station.stationID) }
    guard runs.count == count else { throw BenchError(message: "the demo network has fewer than \(count) runs from Milano Centrale ahead") }
    return Array(runs)
  }

  static let zone: @Sendable (inout Binario_Ticketing_V1_QuoteTicketRequest) -> Void = { $0.zone = .with { $0.zones = "Mi1-Mi3" } }

  static func station(_ run: (Binario_Scheduling_V1_RunRef, String)) -> @Sendable (inout Binario_Ticketing_V1_QuoteTicketRequest) -> Void {
    let (reference, to) = run
    return {
      $0.station = .with {
        $0.run = .with {
          $0.tripID = reference.tripID
          $0.serviceDate = reference.serviceDate
        }
        $0.fromStationID = "MI_CENTRALE"
        $0.toStationID = to
      }
    }
  }

  /// A quote, then its purchase.
  static func purchase(
    _ tickets: Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>,
    buyer: Binario_Identity_V1_TokenPair,
    key: String,
    product: @Sendable (inout Binario_Ticketing_V1_QuoteTicketRequest) -> Void
  ) async throws -> Binario_Ticketing_V1_Purchase {
    let quote = try await tickets.quoteTicket(.with(product), metadata: bearer(buyer)).quote
    return try await tickets.purchaseTickets(
      .with {
        $0.quoteID = quote.quoteID
        $0.idempotencyKey = key
      },
      metadata: bearer(buyer)
    ).purchase
  }
}

/// A new idempotency key per purchase.
final class KeyCounter: Sendable {
  private let counter = Atomic<Int>(0)
  func next() -> String { "bench-\(counter.add(1, ordering: .relaxed).newValue)" }
}
