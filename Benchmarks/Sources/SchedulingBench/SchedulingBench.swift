import ArgumentParser
import BenchSupport
import BinarioAuth
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import IdentityService
import Synchronization

/// `scheduling-bench`: one delay announced to a run with many followers, each with an open
/// notification stream through the gateway (streams multiplexed over a few connections): the
/// time from the admin's call to the last follower receiving it, and each follower's latency;
/// then the departures board's rate and latency through the gateway against scheduling directly.
///
/// identity, scheduling and the gateway are the executables built beside this one, started as
/// `scripts/run-local.sh` starts them; this process is every client. The followers' access
/// tokens are signed with identity's own key, read from its database (registering 10,000
/// accounts would measure identity's password hashing, not the fan-out).
@main
struct SchedulingBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "scheduling-bench",
    abstract: "A delay fanned out to many followers' streams; the departures board's rate and p99."
  )

  @Option(help: "Followers, each with an open notification stream (0: only the departures board).") var followers: Int = 10_000
  @Option(
    help:
      "Client connections to the gateway the streams share; by default as many as the gateway's limit of calls per connection (100) asks for, at least 8."
  )
  var connections: Int?
  @Option(help: "Delays measured (after one warm-up).") var rounds: Int = 3
  @Option(help: "Seconds per departures-board case.") var seconds: Double = 3
  @Option(help: "Departures-board calls in flight.") var inFlight: [Int] = [1, 16]

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  func measure() async throws {
    let flags = RunningSuite.ExtraFlags(identity: ["--access-token-lifetime", "3600"], gateway: ["--rate-limit", "off"])
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.waitUntilTheGatewaySeesServing("scheduling")
      let pids = suite.processIdentifiers
      Output.line("scheduling-bench: gateway (pid \(pids["gateway"] ?? 0)), scheduling (pid \(pids["scheduling"] ?? 0)),")
      Output.line(
        "  identity (pid \(pids["identity"] ?? 0)) as their own processes; this process the clients; \(ProcessInfo.processInfo.activeProcessorCount) cores; TLS on loopback"
      )
      let signer = try await Self.identitySigner(suite)
      let admin = try await suite.withGatewayClient { try await $0.signInAdmin() }
      // The board first: after the fan-out, scheduling's delivery job is still sending the
      // notifications out for a while, and would share the cores with the board's calls.
      try await BoardLoad.measure(suite: suite, seconds: self.seconds, inFlight: self.inFlight)
      if self.followers > 0 {
        try await FanOut.measure(
          suite: suite,
          signer: signer,
          admin: admin.accessToken,
          followers: self.followers,
          connections: self.connections ?? max(8, (self.followers + 89) / 90),
          rounds: self.rounds
        )
      }
      let memory = ["gateway", "scheduling"].compactMap { name -> String? in
        guard let pid = pids[name], let figures = ProcessMemory.of(processIdentifier: pid) else { return nil }
        return "\(name) \(ProcessMemory.mebibytes(figures.residentBytes)) (peak \(ProcessMemory.mebibytes(figures.peakResidentBytes)))"
      }
      Output.line("resident memory at the end: \(memory.joined(separator: "; "))")
    }
  }

  /// Identity's current signing key, from its database (WAL: readable while identity runs).
  static func identitySigner(_ suite: RunningSuite) async throws -> AccessTokenSigner {
    let store = try IdentityStore(directory: suite.folder.appendingPathComponent("data/identity").path)
    guard let key = try await store.signingKeys().last else { throw BenchError(message: "identity has no signing key") }
    return AccessTokenSigner(keyID: key.id, privateKey: key.privateKey)
  }
}

/// Connections to the gateway's Binario front door, as apps connect (no client certificate).
func gatewayClients(_ suite: RunningSuite, count: Int) throws -> [GRPCClient<BinarioClientTransport>] {
  try (0 ..< count).map { _ in
    GRPCClient(
      transport: try BinarioClientTransport(
        host: "127.0.0.1",
        port: suite.gatewayPort,
        serverHostname: "localhost",
        tls: .client(trustRoots: .file(suite.caFile))
      )
    )
  }
}

/// Runs `body` with `clients` running, then shuts them down.
func withClients<Result: Sendable>(
  _ clients: [GRPCClient<BinarioClientTransport>],
  _ body: () async throws -> Result
) async throws -> Result {
  try await withThrowingTaskGroup(of: Void.self) { group in
    for client in clients { group.addTask { try await client.runConnections() } }
    defer {
      for client in clients { client.beginGracefulShutdown() }
    }
    let result = try await body()
    for client in clients { client.beginGracefulShutdown() }
    try await group.waitForAll()
    return result
  }
}
