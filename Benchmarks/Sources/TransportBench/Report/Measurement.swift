import BenchSupport

/// One measured run of one case (transport × calls in flight): throughput, latency, and the
/// CPU time both processes spent per call.
struct Measurement: Sendable {
  var kind: TransportKind
  var inFlight: Int
  /// Which run of this case (1-based).
  var run: Int

  var calls: Int
  var callsPerSecond: Double
  var p50Microseconds: Double
  var p99Microseconds: Double
  /// `getrusage` user + system time per call, in µs.
  var clientCPUPerCall: Double
  var serverCPUPerCall: Double
  /// Voluntary + involuntary context switches per call, client + server.
  var contextSwitchesPerCall: Double
  /// Cores kept busy by other processes during the window (machine busy time minus client and
  /// server), or `nil` where the machine's load cannot be read.
  var otherLoadCores: Double?

  var totalCPUPerCall: Double { self.clientCPUPerCall + self.serverCPUPerCall }

  init(
    kind: TransportKind,
    inFlight: Int,
    run: Int,
    load: LoadResult,
    client: ResourceUsage,
    server: ResourceUsage,
    machineBusyMicroseconds: Int64?
  ) {
    self.kind = kind
    self.inFlight = inFlight
    self.run = run
    self.calls = load.calls
    self.callsPerSecond = load.callsPerSecond
    let sorted = load.latencies.sorted()
    self.p50Microseconds = Self.percentile(0.50, ofSorted: sorted)
    self.p99Microseconds = Self.percentile(0.99, ofSorted: sorted)
    let calls = Double(max(load.calls, 1))
    self.clientCPUPerCall = Double(client.cpuMicroseconds) / calls
    self.serverCPUPerCall = Double(server.cpuMicroseconds) / calls
    self.contextSwitchesPerCall = Double(client.contextSwitches + server.contextSwitches) / calls
    let seconds = Double(load.elapsed.nanoseconds) / 1e9
    self.otherLoadCores = machineBusyMicroseconds.map { busy in
      max(0, Double(busy - client.cpuMicroseconds - server.cpuMicroseconds) / 1e6 / max(seconds, 1e-9))
    }
  }

  /// Nearest-rank percentile of nanosecond latencies, in µs.
  private static func percentile(_ fraction: Double, ofSorted sorted: [UInt64]) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return Double(sorted[min(max(rank, 1), sorted.count) - 1]) / 1000
  }
}
