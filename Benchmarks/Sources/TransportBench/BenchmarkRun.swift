import BenchSupport
import Foundation

/// What `run` was asked to measure.
struct BenchmarkSettings: Sendable {
  var duration: Duration
  var warmup: Duration
  var repeats: Int
  var pick: Pick
  var inFlight: [Int]
  var kinds: [TransportKind]
  var payloadSize: Int
  var executor: ConcurrencyExecutor
}

/// One benchmark run: makes the certificates, starts a server child per transport, measures
/// every case in alternating order, stops the servers, and prints the report.
struct BenchmarkRun: Sendable {
  let settings: BenchmarkSettings

  func execute() async throws {
    let certificates = try BenchCertificates.make()
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("transport-bench-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try certificates.write(to: directory)

    let servers = try await self.launchServers(certificateDirectory: directory)
    defer { for server in servers.values { server.stop() } }

    let report = ReportPrinter(settings: self.settings)
    report.printHeader(servers: self.settings.kinds.compactMap { servers[$0] })

    var measurements: [Measurement] = []
    for run in 1 ... self.settings.repeats {
      for inFlight in self.settings.inFlight {
        // Alternate transports within a run, and flip their order every other run, so that no
        // transport always goes first (or last) after the machine's other work.
        let order = run.isMultiple(of: 2) ? self.settings.kinds.reversed() : self.settings.kinds
        for kind in order {
          let measurement = try await self.measure(
            kind: kind,
            inFlight: inFlight,
            run: run,
            server: servers[kind]!,
            certificates: certificates
          )
          report.printRun(measurement)
          measurements.append(measurement)
        }
      }
    }

    // Servers go before the summary, so nothing they might log lands after its last lines.
    for server in servers.values { server.stop() }
    report.printSummary(measurements)
  }

  private func launchServers(certificateDirectory: URL) async throws -> [TransportKind: ServerProcess] {
    var servers: [TransportKind: ServerProcess] = [:]
    do {
      for kind in self.settings.kinds {
        let executor = self.settings.executor
        servers[kind] = try await offloaded {
          try ServerProcess.launch(kind: kind, certificateDirectory: certificateDirectory, executor: executor)
        }
      }
    } catch {
      for server in servers.values { server.stop() }
      throw error
    }
    return servers
  }

  /// One run of one case on a fresh connection: warm up, then measure calls and both
  /// processes' `getrusage` over the same window.
  private func measure(
    kind: TransportKind,
    inFlight: Int,
    run: Int,
    server: ServerProcess,
    certificates: BenchCertificates
  ) async throws -> Measurement {
    try await EchoClients.withLoad(
      kind: kind,
      port: server.port,
      certificates: certificates,
      payloadSize: self.settings.payloadSize
    ) { load in
      _ = try await load.run(concurrency: inFlight, for: self.settings.warmup)
      let serverBefore = try await offloaded { try server.resourceUsage() }
      let machineBefore = MachineLoad.now()
      let clientBefore = ResourceUsage.ofThisProcess()
      let result = try await load.run(concurrency: inFlight, for: self.settings.duration)
      let clientAfter = ResourceUsage.ofThisProcess()
      let machineAfter = MachineLoad.now()
      let serverAfter = try await offloaded { try server.resourceUsage() }
      var machineBusy: Int64?
      if let machineBefore, let machineAfter {
        machineBusy = machineAfter.busyMicroseconds - machineBefore.busyMicroseconds
      }
      return Measurement(
        kind: kind,
        inFlight: inFlight,
        run: run,
        load: result,
        client: clientAfter.since(clientBefore),
        server: serverAfter.since(serverBefore),
        machineBusyMicroseconds: machineBusy
      )
    }
  }
}
