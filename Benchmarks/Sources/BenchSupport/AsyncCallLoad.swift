import Foundation
import Synchronization

/// Keeps `concurrency` calls in flight for a while through an async client (the gRPC and
/// HTTP/JSON front doors' standard clients): each of `concurrency` tasks makes its next call as
/// soon as its last one ends.
public enum AsyncCallLoad {
  /// Runs the load; `processes` (name → pid) are the processes whose usage the result reports.
  public static func run(
    concurrency: Int,
    for duration: Duration,
    measuring processes: [String: Int32],
    call: @escaping @Sendable () async throws -> Void
  ) async -> LoadResult {
    let before = processes.compactMapValues { ProcessUsage.of(processIdentifier: $0) }
    let started = ContinuousClock.now
    let deadline = started + duration
    let outcomes = await withTaskGroup(of: (latencies: [UInt64], failures: Int, firstFailure: String?).self) { group in
      for _ in 0 ..< concurrency {
        group.addTask {
          var latencies: [UInt64] = []
          latencies.reserveCapacity(1 << 14)
          var failures = 0
          var firstFailure: String?
          while ContinuousClock.now < deadline {
            let start = ContinuousClock.now
            do {
              try await call()
              let (seconds, attoseconds) = (ContinuousClock.now - start).components
              latencies.append(UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
            } catch {
              failures += 1
              if firstFailure == nil { firstFailure = "\(error)" }
            }
          }
          return (latencies, failures, firstFailure)
        }
      }
      var all: [(latencies: [UInt64], failures: Int, firstFailure: String?)] = []
      for await outcome in group { all.append(outcome) }
      return all
    }
    var result = LoadResult(
      calls: outcomes.reduce(0) { $0 + $1.latencies.count },
      failures: outcomes.reduce(0) { $0 + $1.failures },
      elapsed: ContinuousClock.now - started,
      latencies: outcomes.flatMap(\.latencies),
      firstFailure: outcomes.lazy.compactMap(\.firstFailure).first
    )
    for (name, pid) in processes {
      if let earlier = before[name], let now = ProcessUsage.of(processIdentifier: pid) {
        result.usage[name] = now.since(earlier)
      }
    }
    return result
  }
}
