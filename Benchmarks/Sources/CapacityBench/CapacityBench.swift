import ArgumentParser
import BenchSupport
import BinarioLoad
import BinarioServiceKit
import BinarioTestSupport
import Foundation
import Synchronization

/// `capacity-bench`: the whole suite's capacity under the five apps' mix. Starts the suite's
/// release executables as `scripts/run-local.sh` does, makes the load generator's people once,
/// then per front door searches for the highest total rate with every operation's p99 under the
/// limit and nothing failed (`CapacitySearch`), printing each step's table and each process's CPU.
/// With `--profile`, records a `perf` profile of every process at the rate found.
@main
struct CapacityBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "capacity-bench",
    abstract: "The highest rate of the five apps' mix the suite sustains with every p99 under 100 ms, per front door, and what gives first."
  )

  @Option(help: "Front doors to measure, in order: binario, grpc, http-json.") var doors: [DoorKind] = DoorKind.allCases
  @Option(help: "The mix (from the repository's root).") var mix = "Benchmarks/LoadGenerator/mix.json"
  @Option(help: "The first rate tried, operations per second.") var startRate: Double = 50
  @Option(help: "Seconds measured per step.") var seconds = 10
  @Option(help: "Seconds of load before each step is measured.") var warmUp = 3
  @Option(help: "Milliseconds every operation's p99 must stay under.") var p99Limit = 100
  @Option(help: "Travellers (default: the mix's).") var travellers: Int?
  @Option(help: "Drivers (default: the mix's).") var drivers: Int?
  @Option(help: "Connections to the gateway per door (Binario and gRPC).") var connections = 8
  @Flag(help: "Record a perf profile of every process at the rate found, per door (perf must be installed).") var profile = false

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  func measure() async throws {
    var mix = try LoadMix.read(URL(fileURLWithPath: self.mix))
    if let travellers { mix.travellers = travellers }
    if let drivers { mix.drivers = drivers }
    mix.notificationStreams = min(mix.notificationStreams, mix.travellers)
    try mix.check()
    let flags = RunningSuite.ExtraFlags(identity: ["--access-token-lifetime", "3600"], gateway: ["--rate-limit", "off"])
    try await RunningSuite.with(extraFlags: flags) { suite in
      for service in RunningSuite.processNames where service != "gateway" { try await suite.waitUntilTheGatewaySeesServing(service) }
      let gateway = Gateway(
        host: "localhost",
        binarioPort: suite.gatewayPort,
        grpcPort: suite.gatewayGRPCPort,
        httpPort: suite.gatewayHTTPPort,
        caFile: suite.caFile
      )
      let began = ContinuousClock.now
      let cast = try await gateway.withDoor(.binario, timeout: .seconds(30)) { door in
        try await Cast.make(
          through: door,
          admin: RunningSuite.adminEmail,
          password: RunningSuite.adminPassword,
          travellers: mix.travellers,
          drivers: mix.drivers
        )
      }
      print("\(mix.travellers) travellers and \(mix.drivers) drivers made in \(ContinuousClock.now - began)")
      fflush(nil)
      var processes = suite.processIdentifiers
      processes["generator"] = ProcessInfo.processInfo.processIdentifier

      var summary: [String] = []
      for kind in doors {
        print("\n## \(kind.rawValue)")
        let line = try await gateway.withDoor(kind, connections: connections, timeout: .seconds(10)) { door in
          try await LoadGenerator(door: door, cast: cast, mix: mix).withNotificationStreamsOpen { generator in
            try await self.search(generator, processes: processes)
          }
        }
        summary.append(line)
      }
      print("\n| door | capacity, operations/s | completed/s | slowest p99 there | what gave first above it |")
      print("|---|---:|---:|---|---|")
      for line in summary { print(line) }
    }
  }

  /// One door's search; answers its summary row.
  private func search(_ generator: LoadGenerator, processes: [String: Int32]) async throws -> String {
    let search = CapacitySearch(
      startRate: startRate,
      p99Limit: .milliseconds(p99Limit),
      stepDuration: .seconds(seconds),
      warmUp: .seconds(warmUp)
    )
    let window = Mutex<(ContinuousClock.Instant, [String: ProcessUsage])?>(nil)
    let result = await search.run(
      generator,
      beforeStep: { _ in window.withLock { $0 = (.now, Self.usage(processes)) } },
      step: { report, sustained in
        let (start, before) = window.withLock { $0! }
        print("\n\(sustained ? "sustained" : "NOT sustained"): \(report.table)")
        print("CPU, cores busy over the step (warm-up included): \(Self.cores(since: before, at: start, processes))")
        fflush(nil)  // each step as it ends, also into a file
      }
    )
    let door = generator.door.kind.rawValue
    guard let best = result.sustained else { return "| \(door) | none sustained from \(startRate) | | | |" }
    let slowest = best.slowest.map { "\($0.name) \(String(format: "%.1f", Double($0.p99) / 1000)) ms" } ?? ""
    var gave = ""
    if let failed = result.failedAbove {
      let worst = failed.slowest.map { "\($0.name) p99 \(String(format: "%.0f", Double($0.p99) / 1000)) ms" } ?? ""
      gave = "at \(String(format: "%.0f", failed.rate))/s: \(worst), \(failed.failed) failed"
    }
    if profile { try await self.profile(generator, at: best.rate, processes: processes) }
    return "| \(door) | \(String(format: "%.0f", best.rate)) | \(String(format: "%.0f", best.completedPerSecond)) | \(slowest) | \(gave) |"
  }

  /// `perf record` of every process while the generator runs at `rate`, then the share of each
  /// process and the hottest symbols.
  private func profile(_ generator: LoadGenerator, at rate: Double, processes: [String: Int32]) async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("capacity-\(generator.door.kind.rawValue).perf.data").path
    let pids = processes.values.map(String.init).joined(separator: ",")
    let perf = Process()
    perf.executableURL = URL(fileURLWithPath: "/usr/bin/perf")
    perf.arguments = ["record", "-F", "499", "-g", "-o", file, "-p", pids]
    perf.standardOutput = FileHandle.nullDevice
    perf.standardError = FileHandle.nullDevice
    try perf.run()
    let report = await generator.run(rate: rate, for: .seconds(seconds), warmUp: .zero)
    perf.interrupt()  // SIGINT: perf writes its file and exits
    perf.waitUntilExit()
    print("\nprofiled at \(String(format: "%.0f", rate))/s (\(report.failed) failed), \(file):")
    let perfTool = URL(fileURLWithPath: "/usr/bin/perf")
    // The share of every process: each sample's pid, counted.
    let sampled = try await CommandRun.run(executable: perfTool, ["script", "-i", file, "-F", "pid"])
    var samples: [Int32: Int] = [:]
    for line in sampled.standardOutput.split(separator: "\n") {
      if let pid = Int32(line.trimmingCharacters(in: .whitespaces)) { samples[pid, default: 0] += 1 }
    }
    let total = max(1, samples.values.reduce(0, +))
    let names = Dictionary(uniqueKeysWithValues: processes.map { ($0.value, $0.key) })
    let busiest = samples.sorted { $0.value > $1.value }
    print(
      "share of the samples: "
        + busiest.map { "\(names[$0.key] ?? "\($0.key)") \(String(format: "%.1f", Double($0.value) * 100 / Double(total)))%" }.joined(separator: ", ")
    )
    // The hottest symbols of the three busiest processes.
    for (pid, _) in busiest.prefix(3) {
      print("\n\(names[pid] ?? "\(pid)"), hottest symbols (share of all samples):")
      let output = try await CommandRun.run(
        executable: perfTool,
        ["report", "-i", file, "--pid", "\(pid)", "--no-children", "--sort", "dso,symbol", "--stdio", "-g", "none", "--percent-limit", "1"]
      )
      let lines = output.standardOutput.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      for line in lines.prefix(15) { print(String(line).replacingOccurrences(of: #"(\s+-)*\s*$"#, with: "", options: .regularExpression)) }
    }
  }

  private static func usage(_ processes: [String: Int32]) -> [String: ProcessUsage] {
    processes.compactMapValues { ProcessUsage.of(processIdentifier: $0) }
  }

  private static func cores(since before: [String: ProcessUsage], at start: ContinuousClock.Instant, _ processes: [String: Int32]) -> String {
    let elapsed = ContinuousClock.now - start
    let wall = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
    let now = usage(processes)
    return now.keys.sorted().compactMap { name -> String? in
      guard let earlier = before[name], let later = now[name] else { return nil }
      return "\(name) \(String(format: "%.2f", Double(later.since(earlier).cpuNanoseconds) / wall))"
    }.joined(separator: ", ")
  }
}

extension DoorKind: @retroactive ExpressibleByArgument {}
