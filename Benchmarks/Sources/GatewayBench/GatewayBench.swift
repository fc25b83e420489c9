import ArgumentParser
import BenchSupport
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import Foundation
import GRPCCore

/// `gateway-bench`: logins per second, and token-checked calls (`Identity/GetMe`) per second
/// through the gateway versus the same call made directly to identity (with the gateway's
/// certificate and caller metadata, as the gateway forwards it), at 1 and 64 in flight; as the
/// floor of the gateway's latency, a health check the gateway answers itself; and the same
/// signed-in GetMe through each standard front door (gRPC over HTTP/2, HTTP/JSON).
///
/// Identity and the gateway are the `identity` and `gateway` executables built beside this one,
/// started as `scripts/run-local.sh` starts them (separate processes, real TLS on loopback, a
/// SQLite file in a temporary folder, production password hashing); this process is the client.
/// Each call's CPU is reported per process, so the gateway's own cost shows apart.
@main
struct GatewayBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "gateway-bench",
    abstract: "Logins/s, and token-checked calls through the gateway versus directly to identity."
  )

  @Option(help: "Seconds per measured case.") var seconds: Double = 3
  @Option(help: "Runs per case (the paths alternate within each run); the median run is shown.") var runs: Int = 5
  @Option(help: "Seconds of logins to measure.") var loginSeconds: Double = 3
  @Option(help: "The paths to measure (gateway, direct, gateway-health, grpc, http-json); all by default.")
  var paths: [BenchPath] = BenchPath.allCases
  @Option(help: "The numbers of calls in flight to measure at.") var inFlight: [Int] = [1, 64]
  @Option(
    help:
      "off: spans carry trace context only (the default deployment); export: identity and the gateway export every span over OTLP to a receiver in this process; compare: both, one suite after the other, and the CPU tracing adds; paired: one exporting suite, each service's read called with its caller's trace unsampled then sampled, run after run, and the CPU recording and exporting the spans adds."
  )
  var tracing: TracingMode = .off
  @Option(
    help: "With --tracing export or compare: the share of new traces sampled (OTEL_TRACES_SAMPLER=parentbased_traceidratio); every one by default."
  )
  var sampledRatio: Double?
  @Flag(help: "Also measure each service's simplest read, called straight at the service (the direct path's method).")
  var reads = false

  func run() throws {
    // The client's tasks run on NIO's event loops, as the services' do.
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  func measure() async throws {
    switch self.tracing {
    case .off:
      _ = try await self.measure(exportingTo: nil)
    case .paired:
      let receiver = try await OTLPTraceReceiver.start()
      try await BenchSuite.with(exportingTo: receiver.endpoint, environment: [:]) { suite in
        try await self.measurePairedReads(suite)
      }
      await receiver.stop()
    case .export, .compare:
      let receiver = try await OTLPTraceReceiver.start()
      var off: [String: LoadResult] = [:]
      if self.tracing == .compare {
        Output.line("## spans not exported (trace context only)")
        off = try await self.measure(exportingTo: nil)
        Output.line()
        Output.line("## every span exported over OTLP/HTTP (protobuf) to a receiver in this process")
      }
      if let ratio = self.sampledRatio { Output.line("(a share of \(ratio) of new traces sampled)") }
      let exported = try await self.measure(exportingTo: receiver.endpoint)
      await receiver.stop()
      guard self.tracing == .compare else { return }
      Output.line()
      for (key, without) in off.sorted(by: { $0.key < $1.key }) {
        guard let with = exported[key] else { continue }
        // A read's row is its service's; a path's, the gateway's and identity's.
        var processes = ["gateway", "identity"]
        if key.hasPrefix("read-") {
          let serviceAndInFlight = key.dropFirst("read-".count)
          processes = [String(serviceAndInFlight[..<serviceAndInFlight.lastIndex(of: "-")!])]
        }
        let added = processes.compactMap { process -> String? in
          guard let before = without.cpuPerCall(process), let after = with.cpuPerCall(process), before > 0 else { return nil }
          return "\(process) \(Int(before.rounded())) → \(Int(after.rounded())) µs (\(after >= before ? "+" : "")\(Int((after - before).rounded())))"
        }
        Output.line("exporting spans, CPU per call, \(key) in flight: \(added.joined(separator: "; ")) (target: at most +15)")
      }
    }
  }

  /// Starts the suite (exporting spans to `endpoint` if given), measures, prints the table;
  /// returns each path's median run by `path-inFlight`.
  func measure(exportingTo endpoint: String?) async throws -> [String: LoadResult] {
    var medians: [String: LoadResult] = [:]
    let sampler = self.sampledRatio.map { ["OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "\($0)"] }
    try await BenchSuite.with(exportingTo: endpoint, environment: endpoint == nil ? [:] : sampler ?? [:]) { suite in
      let duration = Duration.milliseconds(Int64(self.seconds * 1000))
      let pids = suite.processIdentifiers
      Output.line("gateway-bench: the gateway (pid \(pids["gateway"] ?? 0)) and identity (pid \(pids["identity"] ?? 0)) as their own processes,")
      Output.line(
        "  this process (pid \(ProcessInfo.processInfo.processIdentifier)) the client; \(ProcessInfo.processInfo.activeProcessorCount) cores; TLS on loopback"
      )
      Output.line("  each case: \(self.runs) runs of \(self.seconds) s, paths alternating within a run; the median run by calls/s is shown")
      Output.line()
      func memory(_ moment: String, peak: Bool) {
        let figures = ["identity", "gateway"].compactMap { name -> String? in
          guard let pid = pids[name], let memory = ProcessMemory.of(processIdentifier: pid) else { return nil }
          let shown = ProcessMemory.mebibytes(memory.residentBytes)
          return peak ? "\(name) \(shown), peak \(ProcessMemory.mebibytes(memory.peakResidentBytes))" : "\(name) \(shown)"
        }
        if !figures.isEmpty { Output.line("resident memory \(moment): \(figures.joined(separator: "; "))") }
      }
      memory("idle, after start", peak: false)

      let logins = try await suite.measureLogins(for: .milliseconds(Int64(self.loginSeconds * 1000)), inFlight: 4)
      Output.line(
        "logins: \(Int(logins.callsPerSecond)) per second (4 in flight, identity's production password hashing), p50 \(Int(logins.percentile(0.5))) µs"
      )

      Output.line()
      Output.line("| path | in flight | calls/s | p50 µs | p99 µs | CPU µs/call: client | gateway | identity | total | switches/call |")
      Output.line("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
      var addedAtOneInFlight: [Double] = []
      for inFlight in self.inFlight {
        var results: [BenchPath: [LoadResult]] = [:]
        for _ in 0 ..< self.runs {
          for path in self.paths {
            let result = try await suite.measure(path, inFlight: inFlight, for: duration)
            if let failure = result.firstFailure { Output.line("warning: \(result.failures) failed calls (\(path.rawValue)): \(failure)") }
            results[path, default: []].append(result)
          }
          if inFlight == 1, let gateway = results[.gateway]?.last, let direct = results[.direct]?.last {
            addedAtOneInFlight.append(gateway.percentile(0.5) - direct.percentile(0.5))
          }
        }
        for path in self.paths {
          let sorted = results[path]!.sorted { $0.callsPerSecond < $1.callsPerSecond }
          let median = sorted[sorted.count / 2]
          medians["\(path.rawValue)-\(inFlight)"] = median
          func cpu(_ value: Double?) -> String { value.map { String(Int($0.rounded())) } ?? "-" }
          let switches = median.contextSwitchesPerCall.map { String(format: "%.1f", $0) } ?? "-"
          Output.line(
            "| \(path.rawValue) | \(inFlight) | \(Int(median.callsPerSecond)) | \(Int(median.percentile(0.5))) | \(Int(median.percentile(0.99))) "
              + "| \(cpu(median.cpuPerCall("client"))) | \(cpu(median.cpuPerCall("gateway"))) | \(cpu(median.cpuPerCall("identity"))) "
              + "| \(cpu(median.totalCPUPerCall)) | \(switches) |"
          )
        }
      }
      Output.line()
      if !addedAtOneInFlight.isEmpty {
        // Paired: each run's gateway p50 against the direct p50 measured right after it, so a
        // machine that slows down between runs moves both sides of a difference alike.
        let sorted = addedAtOneInFlight.sorted()
        let median = sorted[sorted.count / 2]
        let each = addedAtOneInFlight.map { String(Int($0.rounded())) }.joined(separator: ", ")
        Output.line("gateway adds \(Int(median.rounded())) µs to p50 at 1 in flight (target: at most 150; median of the runs' differences: \(each))")
      }
      // The standard front doors against the Binario one: the gateway's CPU per call.
      for inFlight in self.inFlight {
        guard let binario = medians["gateway-\(inFlight)"]?.cpuPerCall("gateway") else { continue }
        if let grpc = medians["grpc-\(inFlight)"]?.cpuPerCall("gateway") {
          Output.line(
            "gRPC front door: gateway CPU \(String(format: "%.2f", grpc / max(binario, 1e-9)))× the Binario front door's at \(inFlight) in flight (target: at most 1.5×)"
          )
        }
        if let http = medians["http-json-\(inFlight)"] {
          let ratio = (http.cpuPerCall("gateway") ?? 0) / max(binario, 1e-9)
          Output.line(
            "HTTP/JSON front door: gateway CPU \(String(format: "%.2f", ratio))× the Binario front door's at \(inFlight) in flight; p50 \(Int(http.percentile(0.5))) µs\(inFlight == 1 ? " (target: under 1000)" : "")"
          )
        }
      }
      if let gateway = medians["gateway-64"], let direct = medians["direct-64"] {
        let ratio = gateway.callsPerSecond / max(direct.callsPerSecond, 1e-9)
        Output.line("gateway/direct throughput ratio at 64 in flight: \(String(format: "%.2f", ratio))")
      }
      if self.reads {
        try await self.measureReads(suite, duration: duration, into: &medians)
      }
      memory("after the load (peak: the most held at any time)", peak: true)
    }
    return medians
  }
}

extension GatewayBench {
  /// The table of ``ServiceRead``s: each service's CPU per call for its simplest read.
  func measureReads(_ suite: BenchSuite, duration: Duration, into medians: inout [String: LoadResult]) async throws {
    try await self.reportLocationForReads(suite)
    let echo = try await suite.startEchoServer()
    defer { _ = echo.terminate() }
    Output.line()
    Output.line("Each service's simplest read, straight at the service with the caller the gateway would forward;")
    Output.line("first the baseline, binario-echo-server's Echo/Get (the same server path, no access check, no database):")
    Output.line()
    Output.line("| service | method | in flight | calls/s | p50 µs | p99 µs | CPU µs/call: service | above echo | client |")
    Output.line("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for inFlight in self.inFlight {
      var echoCPU: Double?
      for read in [ServiceRead.echo] + ServiceRead.all {
        var results: [LoadResult] = []
        for _ in 0 ..< self.runs {
          let result = try await suite.measure(read, echo: echo, inFlight: inFlight, for: duration)
          if let failure = result.firstFailure { Output.line("warning: \(result.failures) failed calls (\(read.method)): \(failure)") }
          results.append(result)
        }
        let median = results.sorted { $0.callsPerSecond < $1.callsPerSecond }[results.count / 2]
        medians["read-\(read.service)-\(inFlight)"] = median
        func cpu(_ value: Double?) -> String { value.map { String(Int($0.rounded())) } ?? "-" }
        let serviceCPU = median.cpuPerCall(read.service)
        if read.service == "echo" { echoCPU = serviceCPU }
        let above = read.service == "echo" ? "" : cpu(serviceCPU.flatMap { service in echoCPU.map { service - $0 } })
        Output.line(
          "| \(read.service) | \(read.method.split(separator: "/").last ?? "") | \(inFlight) | \(Int(median.callsPerSecond)) "
            + "| \(Int(median.percentile(0.5))) | \(Int(median.percentile(0.99))) | \(cpu(serviceCPU)) | \(above) "
            + "| \(cpu(median.cpuPerCall("client"))) |"
        )
      }
    }
  }

  /// Reports a location for the bench's passenger: `GetMyLocation` reads it.
  func reportLocationForReads(_ suite: BenchSuite) async throws {
    try await suite.suite.withGatewayConnection { connection in
      _ = try await Binario_GeoOffers_V1_GeoOffers.Client(wrapping: connection).reportLocation(
        .with {
          $0.latitude = 45.4853
          $0.longitude = 9.2041
        },
        metadata: ["authorization": "Bearer \(suite.accessToken)"]
      )
    }
  }
}

extension GatewayBench {
  /// ``TracingMode/paired``: each service's read, run after run unsampled then sampled on the
  /// same suite, so the machine's drift moves both sides of each difference alike.
  func measurePairedReads(_ suite: BenchSuite) async throws {
    try await self.reportLocationForReads(suite)
    let duration = Duration.milliseconds(Int64(self.seconds * 1000))
    Output.line("Each service's simplest read with every span recorded and exported (the caller's trace sampled)")
    Output.line("against the same read with none (unsampled), \(self.runs) pairs of \(self.seconds) s runs; one suite exporting to this process:")
    Output.line()
    Output.line("| service | in flight | CPU µs/call: unsampled | sampled | added (median of the pairs) | pairs |")
    Output.line("|---|---:|---:|---:|---:|---|")
    for inFlight in self.inFlight {
      for read in ServiceRead.all {
        var without: [Double] = []
        var with: [Double] = []
        for _ in 0 ..< self.runs {
          for sampled in [false, true] {
            let result = try await suite.measure(read, inFlight: inFlight, for: duration, sampled: sampled)
            if let failure = result.firstFailure { Output.line("warning: \(result.failures) failed calls (\(read.method)): \(failure)") }
            guard let cpu = result.cpuPerCall(read.service) else { continue }
            if sampled { with.append(cpu) } else { without.append(cpu) }
          }
        }
        let added = zip(without, with).map { $1 - $0 }
        func median(_ values: [Double]) -> Int { Int(values.sorted()[values.count / 2].rounded()) }
        Output.line(
          "| \(read.service) | \(inFlight) | \(median(without)) | \(median(with)) | \(median(added)) (target: at most 15) "
            + "| \(added.map { String(Int($0.rounded())) }.joined(separator: ", ")) |"
        )
      }
    }
  }
}

enum TracingMode: String, CaseIterable, ExpressibleByArgument {
  case off, export, compare, paired
}

/// The ways a call is measured.
enum BenchPath: String, CaseIterable, ExpressibleByArgument {
  /// `Identity/GetMe` through the gateway: token check, then forwarded to identity.
  case gateway
  /// The same call straight to identity, with the metadata the gateway would forward.
  case direct
  /// `grpc.health.v1.Health/Check`, which the gateway answers itself (upstream status cached):
  /// the cost of the hop to the gateway and back, without an upstream.
  case gatewayHealth = "gateway-health"
  /// `Identity/GetMe` through the gRPC (HTTP/2) front door, with grpc-swift's standard client.
  case grpc
  /// `GET /v1/me` through the HTTP/JSON front door, with AsyncHTTPClient.
  case httpJSON = "http-json"
}
