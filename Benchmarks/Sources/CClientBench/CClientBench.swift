import ArgumentParser
import BenchSupport
import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore

/// `c-client-bench`: the C device client (clients/c, built here in release without sanitizers)
/// against the gateway beside the Swift client, in one run: unary `GetMe` calls through the
/// gateway on one connection, 1 and 16 in flight, runs alternating between the two clients; calls
/// per second and CPU per call of the client process (the C one reports its own, this process is
/// the Swift one) and of the gateway and identity. Then the library's size and binario-sensor's
/// peak resident memory uploading 20,000 readings in batches of 500.
@main
struct CClientBench: ParsableCommand, Sendable {
  static let configuration = CommandConfiguration(
    commandName: "c-client-bench",
    abstract: "The C client's calls/s and CPU per call beside the Swift client's; libbinario's size; binario-sensor's memory."
  )

  @Option(help: "Seconds per run.") var seconds: Double = 4
  @Option(help: "Runs per client and case (the median by calls/s is shown).") var runs = 3

  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let build = root.appendingPathComponent(".build/c-release")

  func run() throws {
    try EventLoopConcurrency.run(installing: true) { try await self.measure() }
  }

  /// Builds clients/c in release, shared library, no sanitizers.
  static func buildCClient() throws {
    for arguments in [
      [
        "-S", root.appendingPathComponent("clients/c").path, "-B", build.path, "-DCMAKE_BUILD_TYPE=Release", "-DBINARIO_SANITIZE=OFF",
        "-DBUILD_SHARED_LIBS=ON",
      ],
      ["--build", build.path, "--target", "binario", "bench_calls", "binario-sensor"],
    ] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/cmake")
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw BenchError(message: "cmake \(arguments.joined(separator: " ")) failed") }
    }
  }

  /// Runs a program of the C build to its end; its standard output.
  static func runC(_ name: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = build.appendingPathComponent(name)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchError(message: "\(name) failed (\(process.terminationStatus))") }
    return String(decoding: data, as: UTF8.self)
  }

  /// One measured run: calls, seconds, CPU µs by process.
  struct Run {
    var calls: Int
    var seconds: Double
    var cpu: [String: Double]
    var callsPerSecond: Double { Double(calls) / seconds }
    func cpuPerCall(_ process: String) -> String { cpu[process].map { String(Int(($0 / Double(max(calls, 1))).rounded())) } ?? "-" }
  }

  func measure() async throws {
    Output.line("c-client-bench: building clients/c (release, shared, no sanitizers)...")
    try Self.buildCClient()
    Output.line(
      "c-client-bench: GetMe through the gateway on one connection, \(runs) runs of \(seconds) s per client and case, alternating; "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores; TLS on loopback"
    )
    let flags = RunningSuite.ExtraFlags(identity: ["--access-token-lifetime", "3600"], gateway: ["--rate-limit", "off"])
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      let servers = suite.processIdentifiers.filter { ["gateway", "identity"].contains($0.key) }
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
        let admin = try await identity.signInAdmin()
        let user = try await identity.signUp(email: "bench@example.com", admin: admin)
        let token = user.accessToken
        let telemetryClient = Binario_Telemetry_V1_Telemetry.Client(wrapping: client)
        let deviceToken = try await telemetryClient.registerDevice(.with { $0.name = "Bench board" }, metadata: bearer(user)).token

        Output.line()
        Output.line("| client | in flight | calls/s | CPU µs/call: client | gateway | identity |")
        Output.line("|---|---:|---:|---:|---:|---:|")
        for inFlight in [1, 16] {
          var c: [Run] = []
          var swift: [Run] = []
          for _ in 0 ..< runs {
            c.append(try self.cRun(suite: suite, token: token, inFlight: inFlight, servers: servers))
            swift.append(await self.swiftRun(identity, token: token, inFlight: inFlight, servers: servers))
          }
          for (name, results) in [("C (libbinario)", c), ("Swift (GRPCCore over BinarioClientTransport)", swift)] {
            let median = results.sorted { $0.callsPerSecond < $1.callsPerSecond }[results.count / 2]
            Output.line(
              "| \(name) | \(inFlight) | \(Int(median.callsPerSecond.rounded())) | \(median.cpuPerCall("client")) | "
                + "\(median.cpuPerCall("gateway")) | \(median.cpuPerCall("identity")) |"
            )
          }
        }
        try self.sizesAndMemory(suite: suite, deviceToken: deviceToken)
      }
    }
  }

  func cRun(suite: RunningSuite, token: String, inFlight: Int, servers: [String: Int32]) throws -> Run {
    let before = servers.compactMapValues { ProcessUsage.of(processIdentifier: $0) }
    let output = try Self.runC(
      "bench_calls",
      ["127.0.0.1", "\(suite.gatewayPort)", suite.caFile, token, "\(inFlight)", "\(seconds)"]
    )
    // "calls N seconds S cpu_us C"
    let fields = output.split(whereSeparator: \.isWhitespace)
    guard fields.count == 6, let calls = Int(fields[1]), let wall = Double(fields[3]), let cpu = Double(fields[5]) else {
      throw BenchError(message: "bench_calls said: \(output)")
    }
    var run = Run(calls: calls, seconds: wall, cpu: ["client": cpu])
    for (name, pid) in servers {
      if let earlier = before[name], let now = ProcessUsage.of(processIdentifier: pid) {
        run.cpu[name] = Double(now.since(earlier).cpuNanoseconds) / 1000
      }
    }
    return run
  }

  func swiftRun(
    _ identity: Binario_Identity_V1_Identity.Client<BinarioClientTransport>,
    token: String,
    inFlight: Int,
    servers: [String: Int32]
  ) async -> Run {
    var measured = servers
    measured["client"] = ProcessInfo.processInfo.processIdentifier
    let metadata: Metadata = ["authorization": .string("Bearer \(token)")]
    let result = await AsyncCallLoad.run(concurrency: inFlight, for: .seconds(seconds), measuring: measured) {
      _ = try await identity.getMe(.init(), metadata: metadata)
    }
    let (whole, fraction) = result.elapsed.components
    return Run(
      calls: result.calls,
      seconds: Double(whole) + Double(fraction) / 1e18,
      cpu: result.usage.mapValues { Double($0.cpuNanoseconds) / 1000 }
    )
  }

  /// libbinario's size, and binario-sensor's peak RSS uploading 20,000 readings.
  func sizesAndMemory(suite: RunningSuite, deviceToken: String) throws {
    Output.line()
    let library = Self.build.appendingPathComponent("libbinario.so")
    let size = (try FileManager.default.attributesOfItem(atPath: library.path)[.size] as? Int) ?? 0
    Output.line("libbinario.so (release, with the wire protocol's and google.rpc.Status's generated code): \(size / 1024) KiB")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("c-client-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var csv = "time,latitude,longitude,temperature,humidity,pm2.5\n"
    let start = Date(timeIntervalSince1970: 1_704_067_200)
    for index in 0 ..< 20_000 {
      csv += "\(start.addingTimeInterval(Double(index)).formatted(.iso8601)),45.46,9.19,\(5 + Double(index % 100) / 10),60,\(index % 50)\n"
    }
    let readings = folder.appendingPathComponent("readings.csv")
    try Data(csv.utf8).write(to: readings)
    let tokenFile = folder.appendingPathComponent("board.token")
    try Data(deviceToken.utf8).write(to: tokenFile)
    let began = Date()
    let output = try Self.runC(
      "bench_calls",
      [
        "--max-rss", Self.build.appendingPathComponent("binario-sensor").path, "--gateway", "127.0.0.1:\(suite.gatewayPort)", "--ca", suite.caFile,
        "--server-name", "localhost", "--token-file", tokenFile.path, "--spool", folder.appendingPathComponent("spool").path, readings.path,
      ]
    )
    let elapsed = Date().timeIntervalSince(began)
    Output.line(
      "binario-sensor uploading 20,000 readings in batches of 500: \(output.trimmingCharacters(in: .whitespacesAndNewlines)), \(String(format: "%.2f", elapsed)) s"
    )
  }
}
