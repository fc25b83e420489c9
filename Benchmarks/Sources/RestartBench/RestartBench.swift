import ArgumentParser
import BinarioLoad
import BinarioServiceKit
import BinarioTestSupport
import Foundation

/// `restart-bench`: what clients see while the suite's services restart. Starts the suite's
/// executables as `capacity-bench` does and plays the five apps' mix at a steady rate through one
/// front door, three times for the same length: undisturbed (the baseline), while each of the
/// six services is stopped with SIGTERM and started again in turn, and while each is killed with
/// `kill -9` and started again. Prints each run's table (failures by operation and status, p50
/// to max) and every restart's times: from the signal to the old process's exit, and from there
/// to the new one listening.
@main
struct RestartBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "restart-bench",
    abstract: "The five apps' mix at a steady rate while every service restarts in turn (SIGTERM, then kill -9): errors and added latency."
  )

  @Option(help: "The front door: binario, grpc or http-json.") var door: DoorKind = .binario
  @Option(help: "The mix (from the repository's root).") var mix = "Benchmarks/LoadGenerator/mix.json"
  @Option(help: "Operations per second.") var rate: Double = 100
  @Option(help: "Seconds per run; the six restarts are spread over it.") var seconds = 30
  @Option(help: "Travellers (default: the mix's).") var travellers: Int?
  @Option(help: "Drivers (default: the mix's).") var drivers: Int?
  @Option(help: "Connections to the gateway (Binario and gRPC doors).") var connections = 8

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  static let services = RunningSuite.processNames.filter { $0 != "gateway" }

  func measure() async throws {
    var mix = try LoadMix.read(URL(fileURLWithPath: self.mix))
    if let travellers { mix.travellers = travellers }
    if let drivers { mix.drivers = drivers }
    mix.notificationStreams = min(mix.notificationStreams, mix.travellers)
    try mix.check()
    let flags = RunningSuite.ExtraFlags(identity: ["--access-token-lifetime", "3600"], gateway: ["--rate-limit", "off"])
    try await RunningSuite.with(extraFlags: flags) { suite in
      for service in Self.services { try await suite.waitUntilTheGatewaySeesServing(service) }
      let gateway = Gateway(
        host: "localhost",
        binarioPort: suite.gatewayPort,
        grpcPort: suite.gatewayGRPCPort,
        httpPort: suite.gatewayHTTPPort,
        caFile: suite.caFile
      )
      let cast = try await gateway.withDoor(.binario, timeout: .seconds(30)) { door in
        try await Cast.make(
          through: door,
          admin: RunningSuite.adminEmail,
          password: RunningSuite.adminPassword,
          travellers: mix.travellers,
          drivers: mix.drivers
        )
      }
      var summary: [String] = []
      try await gateway.withDoor(self.door, connections: self.connections, timeout: .seconds(30)) { door in
        let generator = LoadGenerator(door: door, cast: cast, mix: mix)
        for stop in [RunningSuite.Stop?.none] + RunningSuite.Stop.allCases.map(Optional.some) {
          let title = stop.map { "every service restarted in turn (\($0.rawValue))" } ?? "no restart (baseline)"
          let (report, restarts) = try await self.run(generator, suite: suite, restarting: stop)
          print("\n## \(title)\n\n\(report.table)")
          if !restarts.isEmpty { print("\nrestarts, stopping + starting to listening: \(restarts.joined(separator: ", "))") }
          fflush(nil)
          let all = report.operations.filter { $0.completed > 0 }
          let p99 = all.map(\.p99).max() ?? 0
          let maximum = all.map(\.max).max() ?? 0
          let failed = report.operations.reduce(0) { $0 + $1.failed }
          let streams = report.streams.failures.values.reduce(0, +)
          summary.append(
            "| \(title) | \(all.reduce(0) { $0 + $1.completed }) | \(failed) | \(streams) | "
              + "\(String(format: "%.1f", Double(p99) / 1000)) | \(String(format: "%.1f", Double(maximum) / 1000)) |"
          )
        }
      }
      print(
        "\n| door \(self.door.rawValue), \(String(format: "%.0f", self.rate))/s for \(self.seconds) s | operations | failed | streams ended | slowest p99 ms | max ms |"
      )
      print("|---|---:|---:|---:|---:|---:|")
      for line in summary { print(line) }
    }
  }

  /// One run at the rate, restarting the six services evenly over it when `stop` is given.
  private func run(
    _ generator: LoadGenerator,
    suite: RunningSuite,
    restarting stop: RunningSuite.Stop?
  ) async throws -> (LoadReport, [String]) {
    let duration = Duration.seconds(self.seconds)
    let warmUp = Duration.seconds(2)
    async let report = generator.run(rate: self.rate, for: duration, warmUp: warmUp)
    var restarts: [String] = []
    if let stop {
      // The first restart a gap after the warm-up, the last a gap before the end.
      let gap = duration / (Self.services.count + 1)
      var next = ContinuousClock.now + warmUp + gap
      for service in Self.services {
        try await Task.sleep(until: next)
        let took = try await suite.restart(service, stop: stop)
        restarts.append("\(service) \(Self.milliseconds(took.stopping)) + \(Self.milliseconds(took.starting)) ms")
        next += gap
      }
    }
    return (await report, restarts)
  }

  private static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.0f", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
  }
}

extension DoorKind: @retroactive ExpressibleByArgument {}
