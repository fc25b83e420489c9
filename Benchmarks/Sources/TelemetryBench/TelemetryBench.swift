import ArgumentParser
import BenchSupport
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import SwiftProtobuf
import Synchronization
import TelemetryService

/// `telemetry-bench`: a board's readings ingested through the gateway in batches of 1,000
/// (target: 200,000 readings/s on this machine), beside two baselines in the same run: the same
/// batches stored in-process (no network: SQLite and validation alone) and empty batches through
/// the gateway (the call's own cost); the streaming upload's rate, one reading a message and 100;
/// then statistics (target: under 300 ms) and a 500-point series over 1,000,000 readings.
///
/// The suite's executables are built beside this one and started as `scripts/run-local.sh`
/// starts them; this process is every client, on the same two cores.
@main
struct TelemetryBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "telemetry-bench",
    abstract: "Readings ingested per second through the gateway, the streaming upload's rate, statistics and series over 1M readings."
  )

  @Option(help: "Readings per batch.") var batch = 1_000
  @Option(help: "Batches in flight at once.") var concurrency = 4
  @Option(help: "Connections to the gateway.") var connections = 2
  @Option(help: "Seconds per case.") var seconds: Double = 6
  @Option(help: "Readings the queries run over.") var queryReadings = 1_000_000
  @Option(help: "The ingest target, readings per second.") var targetRate: Double = 200_000
  @Option(help: "The statistics target, milliseconds.") var targetMilliseconds: Double = 300

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  /// 2024-01-01T00:00:00Z; reading `n` is 100 ms after reading `n - 1`.
  static let epoch = Date(timeIntervalSince1970: 1_704_067_200)

  static func reading(_ n: Int) -> Binario_Telemetry_V1_Reading {
    var reading = Binario_Telemetry_V1_Reading()
    reading.time = Google_Protobuf_Timestamp(date: epoch.addingTimeInterval(Double(n) / 10))
    reading.latitude = 45.46 + Double(n % 1_000) * 0.00002
    reading.longitude = 9.19 + Double(n % 777) * 0.00002
    reading.temperature = 5 + Double(n % 200) * 0.1
    reading.humidity = 40 + Double(n % 500) * 0.1
    reading.pressure = 1_000 + Double(n % 30)
    reading.pm1 = Double(n % 40)
    reading.pm25 = Double(n % 60) + 0.5
    reading.pm10 = Double(n % 90) + 0.25
    return reading
  }

  static func domainReading(_ n: Int) -> Reading {
    let proto = reading(n)
    return Reading(
      time: proto.time.date,
      position: GeoPoint(latitude: proto.latitude, longitude: proto.longitude),
      values: [
        .temperature: proto.temperature, .humidity: proto.humidity, .pressure: proto.pressure, .pm1: proto.pm1, .pm2_5: proto.pm25,
        .pm10: proto.pm10,
      ]
    )
  }

  func measure() async throws {
    Output.line(
      "telemetry-bench: batches of \(batch), \(concurrency) in flight over \(connections) connections; gateway, telemetry, identity as "
        + "their own processes, this process every client; \(ProcessInfo.processInfo.activeProcessorCount) cores; TLS on loopback"
    )
    Output.line()
    Output.line("## Ingest, \(seconds) s per case")
    Output.line("| case | readings per s | calls per s | call p50 ms | p99 ms | CPU µs per reading: telemetry | gateway | this process |")
    Output.line("|---|---:|---:|---:|---:|---:|---:|---:|")
    try await self.inProcessBaseline()

    try await RunningSuite.with(extraFlags: RunningSuite.ExtraFlags(gateway: ["--rate-limit", "off"])) { suite in
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      let pids = suite.processIdentifiers.filter { ["gateway", "telemetry"].contains($0.key) }
      let clients = try (0 ..< connections).map { _ in
        GRPCClient(
          transport: try BinarioClientTransport(
            host: "127.0.0.1",
            port: suite.gatewayPort,
            serverHostname: "localhost",
            tls: .client(trustRoots: .file(suite.caFile))
          )
        )
      }
      try await withThrowingDiscardingTaskGroup { group in
        for client in clients { group.addTask { try await client.runConnections() } }
        defer { clients.forEach { $0.beginGracefulShutdown() } }
        let identity = Binario_Identity_V1_Identity.Client(wrapping: clients[0])
        let admin = try await identity.signInAdmin()
        let user = try await identity.signUp(email: "bench@example.com", admin: admin)
        let telemetry = clients.map { Binario_Telemetry_V1_Telemetry.Client(wrapping: $0) }
        let token = try await telemetry[0].registerDevice(.with { $0.name = "Bench board" }, metadata: bearer(user)).token
        let device: Metadata = ["authorization": .string("Device \(token)")]

        // Empty batches: the call's own cost through the gateway (the token checked, nothing stored).
        let turn = Atomic<Int>(0)
        let empty = await AsyncCallLoad.run(concurrency: concurrency, for: .seconds(seconds), measuring: pids) {
          let client = telemetry[turn.wrappingAdd(1, ordering: .relaxed).oldValue % telemetry.count]
          _ = try await client.uploadReadings(.init(), metadata: device)
        }
        self.row("empty batches through the gateway (baseline)", empty, readingsPerCall: 0)

        let next = Atomic<Int>(0)
        let batch = self.batch
        let full = await AsyncCallLoad.run(concurrency: concurrency, for: .seconds(seconds), measuring: pids) {
          let first = next.wrappingAdd(batch, ordering: .relaxed).oldValue
          let request = Binario_Telemetry_V1_UploadReadingsRequest.with { $0.readings = (first ..< first + batch).map(Self.reading) }
          let client = telemetry[first / batch % telemetry.count]
          let answer = try await client.uploadReadings(request, metadata: device)
          guard answer.stored == batch else {
            throw BenchError(message: "stored \(answer.stored) of \(batch): \(answer.rejected.first?.reason ?? "")")
          }
        }
        self.row("batches of \(batch) through the gateway", full, readingsPerCall: batch)
        let rate = Double(full.calls * batch) / full.elapsed.seconds
        Output.line()
        Output.line(
          rate >= targetRate
            ? "ingest target met: \(Int(rate)) readings/s ≥ \(Int(targetRate))"
            : "ingest target missed: \(Int(rate)) readings/s < \(Int(targetRate))"
        )

        // Streaming: one stream, readings as fast as the client writes them.
        Output.line()
        Output.line("## Streaming upload, one stream, \(seconds) s per case")
        Output.line("| readings per message | readings per s | CPU µs per reading: telemetry | gateway |")
        Output.line("|---:|---:|---:|---:|")
        for perMessage in [1, 100] {
          let before = pids.compactMapValues { ProcessUsage.of(processIdentifier: $0) }
          let started = ContinuousClock.now
          let deadline = started + .seconds(seconds)
          let answer = try await telemetry[0].streamReadings(metadata: device) { writer in
            while ContinuousClock.now < deadline {
              let first = next.wrappingAdd(perMessage, ordering: .relaxed).oldValue
              try await writer.write(.with { $0.readings = (first ..< first + perMessage).map(Self.reading) })
            }
          }
          let elapsed = (ContinuousClock.now - started).seconds
          let stored = Int(answer.stored)
          func cpu(_ name: String) -> String {
            guard let pid = pids[name], let earlier = before[name], let now = ProcessUsage.of(processIdentifier: pid), stored > 0 else { return "-" }
            return String(format: "%.1f", Double(now.since(earlier).cpuNanoseconds) / 1_000 / Double(stored))
          }
          Output.line("| \(perMessage) | \(Int(Double(stored) / elapsed)) | \(cpu("telemetry")) | \(cpu("gateway")) |")
        }

        // The queries over exactly `queryReadings` readings: a second board's, uploaded in batches
        // of 10,000.
        let queryBoard = try await telemetry[0].registerDevice(.with { $0.name = "Query board" }, metadata: bearer(user))
        let queryDevice: Metadata = ["authorization": .string("Device \(queryBoard.token)")]
        var stored = 0
        while stored < queryReadings {
          let first = stored
          let count = min(10_000, queryReadings - stored)
          _ = try await telemetry[0].uploadReadings(.with { $0.readings = (first ..< first + count).map(Self.reading) }, metadata: queryDevice)
          stored += count
        }
        let deviceID = queryBoard.device.id
        let from = Google_Protobuf_Timestamp(date: Self.epoch)
        let to = Google_Protobuf_Timestamp(date: Self.epoch.addingTimeInterval(Double(stored) / 10 + 1))
        Output.line()
        Output.line("## Queries over a board's \(stored) readings (through the gateway; 5 runs each)")
        Output.line("| query | p50 ms | max ms | answer |")
        Output.line("|---|---:|---:|---|")
        var statisticsMedian = 0.0
        for (name, query) in [
          (
            "GetStatistics pm2.5",
            { @Sendable () async throws -> String in
              let s = try await telemetry[0].getStatistics(
                .with {
                  $0.deviceID = deviceID
                  $0.measure = .pm25
                  $0.from = from
                  $0.to = to
                },
                metadata: bearer(user)
              )
              return "count \(s.count), median \(s.median)"
            }
          ),
          (
            "GetSeries pm2.5, 500 points",
            { @Sendable () async throws -> String in
              let s = try await telemetry[0].getSeries(
                .with {
                  $0.deviceID = deviceID
                  $0.measure = .pm25
                  $0.from = from
                  $0.to = to
                  $0.maxPoints = 500
                },
                metadata: bearer(user)
              )
              return "\(s.points.count) points"
            }
          ),
        ] as [(String, @Sendable () async throws -> String)] {
          var times: [Double] = []
          var answer = ""
          for _ in 0 ..< 5 {
            let start = ContinuousClock.now
            answer = try await query()
            times.append((ContinuousClock.now - start).seconds * 1_000)
          }
          times.sort()
          if name.hasPrefix("GetStatistics") { statisticsMedian = times[2] }
          Output.line("| \(name) | \(String(format: "%.0f", times[2])) | \(String(format: "%.0f", times[4])) | \(answer) |")
        }
        Output.line()
        Output.line(
          statisticsMedian < targetMilliseconds
            ? "statistics target met: \(Int(statisticsMedian)) ms < \(Int(targetMilliseconds)) ms"
            : "statistics target missed: \(Int(statisticsMedian)) ms ≥ \(Int(targetMilliseconds)) ms"
        )
        if let pid = suite.processIdentifiers["telemetry"], let memory = ProcessMemory.of(processIdentifier: pid) {
          Output.line(
            "telemetry's resident memory at the end: \(ProcessMemory.mebibytes(memory.residentBytes)) (peak \(ProcessMemory.mebibytes(memory.peakResidentBytes)))"
          )
        }
        group.cancelAll()
      }
    }
  }

  /// The same batches stored by telemetry's domain in this process, on a database of its own.
  func inProcessBaseline() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("telemetry-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try TelemetryStore(directory: folder.path)
    let domain = TelemetryDomain(
      store: store,
      clock: SystemClock(),
      downloader: HTTPReferenceDownloader(),
      sources: [],
      notifier: RecordingNotificationSender()
    )
    _ = try await domain.registry.register(ownerUserID: "bench", name: "Bench board")
    let seq = try await store.deviceSeqs(ownerUserID: "bench")[0]
    let before = ResourceUsage.ofThisProcess()
    let started = ContinuousClock.now
    let deadline = started + .seconds(seconds)
    var n = 0
    var calls = 0
    while ContinuousClock.now < deadline {
      let readings = (n ..< n + batch).map(Self.domainReading)
      _ = try await domain.ingest.upload(deviceSeq: seq, readings)
      n += batch
      calls += 1
    }
    let elapsed = (ContinuousClock.now - started).seconds
    let cpu = Double(ResourceUsage.ofThisProcess().since(before).cpuMicroseconds) / Double(max(n, 1))
    Output.line(
      "| batches of \(batch) stored in-process, no network (baseline) | \(Int(Double(n) / elapsed)) | \(Int(Double(calls) / elapsed)) | - | - "
        + "| \(String(format: "%.1f", cpu)) (in this process) | - | - |"
    )
  }

  func row(_ name: String, _ result: LoadResult, readingsPerCall: Int) {
    let readings = result.calls * readingsPerCall
    func cpu(_ process: String) -> String {
      guard let usage = result.usage[process] else { return "-" }
      let per =
        readingsPerCall == 0
        ? Double(usage.cpuNanoseconds) / 1_000 / Double(max(result.calls, 1)) : Double(usage.cpuNanoseconds) / 1_000 / Double(max(readings, 1))
      return String(format: "%.1f", per) + (readingsPerCall == 0 ? " per call" : "")
    }
    Output.line(
      "| \(name) | \(Int(Double(readings) / result.elapsed.seconds)) | \(Int(result.callsPerSecond)) | \(String(format: "%.2f", Double(result.percentile(0.5)) / 1_000)) "
        + "| \(String(format: "%.2f", Double(result.percentile(0.99)) / 1_000)) | \(cpu("telemetry")) | \(cpu("gateway")) | - |"
    )
    if result.failures > 0 { Output.line("warning: \(result.failures) calls failed: \(result.firstFailure ?? "")") }
  }
}

extension Duration {
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
