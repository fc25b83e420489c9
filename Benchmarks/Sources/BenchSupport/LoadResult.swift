import Foundation

/// What one load run measured.
public struct LoadResult: Sendable {
  public init(calls: Int, failures: Int, elapsed: Duration, latencies: [UInt64], firstFailure: String?) {
    self.calls = calls
    self.failures = failures
    self.elapsed = elapsed
    self.latencies = latencies
    self.firstFailure = firstFailure
  }

  public var calls: Int
  public var failures: Int
  public var elapsed: Duration
  /// Per-call latencies, in nanoseconds.
  public var latencies: [UInt64]
  /// The status message of the first failure, if any.
  public var firstFailure: String?
  /// What each process (the load, the gateway, identity) used meanwhile, by name.
  public var usage: [String: ProcessUsage] = [:]

  /// A process's CPU time per call, in µs.
  public func cpuPerCall(_ process: String) -> Double? {
    self.usage[process].map { Double($0.cpuNanoseconds) / 1000 / Double(max(self.calls + self.failures, 1)) }
  }

  /// All processes' CPU time per call, in µs.
  public var totalCPUPerCall: Double? {
    guard !self.usage.isEmpty else { return nil }
    return Double(self.usage.values.reduce(0) { $0 + $1.cpuNanoseconds }) / 1000 / Double(max(self.calls + self.failures, 1))
  }

  /// All processes' context switches per call.
  public var contextSwitchesPerCall: Double? {
    guard !self.usage.isEmpty else { return nil }
    return Double(self.usage.values.reduce(0) { $0 + $1.contextSwitches }) / Double(max(self.calls + self.failures, 1))
  }

  public var callsPerSecond: Double {
    let (seconds, attoseconds) = self.elapsed.components
    return Double(self.calls) / max(Double(seconds) + Double(attoseconds) / 1e18, 1e-9)
  }

  /// Nearest-rank percentile, in µs.
  public func percentile(_ fraction: Double) -> Double {
    let sorted = self.latencies.sorted()
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return Double(sorted[min(max(rank, 1), sorted.count) - 1]) / 1000
  }
}
