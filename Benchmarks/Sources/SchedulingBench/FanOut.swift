import BenchSupport
import BinarioAuth
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Synchronization

/// The delay fan-out: `followers` users follow one run and keep a notification stream open
/// through the gateway; an admin delays the run; each stream notes when the notification
/// arrives.
enum FanOut {
  typealias Scheduling = Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  typealias Notifications = Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>

  static func measure(
    suite: RunningSuite,
    signer: AccessTokenSigner,
    admin: String,
    followers: Int,
    connections: Int,
    rounds: Int
  ) async throws {
    let clients = try gatewayClients(suite, count: connections)
    try await withClients(clients) {
      let scheduling = Scheduling(wrapping: clients[0])
      let board = try await scheduling.getDeparturesBoard(
        .with {
          $0.stationID = "MI_CENTRALE"
          $0.limit = 1
        }
      )
      guard let run = board.departures.first?.run.run else { throw BenchError(message: "the demo network has no departure now") }
      let now = Date()
      let tokens = try (0 ..< followers).map { index in
        try signer.sign(
          AccessTokenClaims(
            userID: "bench-follower-\(index)",
            roles: ["passenger"],
            sessionID: UUID().uuidString,
            tokenID: UUID().uuidString,
            issuedAt: now,
            expiresAt: now.addingTimeInterval(3600)
          )
        )
      }
      @Sendable func metadata(_ index: Int) -> Metadata { ["authorization": "Bearer \(tokens[index])"] }

      Output.line()
      Output.line("## A delay to \(followers) followers' streams (\(connections) client connections to the gateway)")
      let followStarted = ContinuousClock.now
      try await forEachConcurrently(0 ..< followers, width: 64) { index in
        _ = try await Scheduling(wrapping: clients[index % connections]).followRun(
          .with { $0.run = run },
          metadata: metadata(index)
        )
      }
      Output.line("followed \(run.tripID) on \(run.serviceDate): \(followers) FollowRun calls in \(seconds(ContinuousClock.now - followStarted)) s")
      if let pid = suite.processIdentifiers["scheduling"], let figures = ProcessMemory.of(processIdentifier: pid) {
        Output.line("scheduling's resident memory before the streams: \(ProcessMemory.mebibytes(figures.residentBytes))")
      }

      let receipts = Receipts(followers: followers)
      try await withThrowingTaskGroup(of: Void.self) { streams in
        for index in 0 ..< followers {
          streams.addTask {
            var options = CallOptions.defaults
            options.timeout = nil
            // From the start of the follower's (empty) inbox: the warm-up delay reaches every
            // stream wherever it is in opening, and proves it open.
            try await Notifications(wrapping: clients[index % connections]).watchNotifications(
              .with { $0.cursor = "0" },
              metadata: metadata(index),
              options: options
            ) { response in
              do {
                for try await _ in response.messages { receipts.record(follower: index, at: .now) }
                receipts.fail("follower \(index)'s stream ended")
              } catch {
                receipts.fail("follower \(index)'s stream failed: \(error)")
                throw error
              }
            }
          }
        }
        defer { streams.cancelAll() }

        let opening = ContinuousClock.now
        _ = try await delay(scheduling, run, minutes: 1, admin: admin)
        try await receipts.waitForAll(count: 1)
        Output.line("warm-up: \(followers) streams open and notified \(seconds(ContinuousClock.now - opening)) s after the first opened")
        let memory = ["gateway", "scheduling"].compactMap { name -> String? in
          guard let pid = suite.processIdentifiers[name], let figures = ProcessMemory.of(processIdentifier: pid) else { return nil }
          return "\(name) \(ProcessMemory.mebibytes(figures.residentBytes))"
        }
        Output.line("resident memory with the streams open: \(memory.joined(separator: "; "))")

        Output.line()
        Output.line("| round | acknowledged ms | last follower ms | p50 ms | p99 ms | scheduling CPU ms | gateway CPU ms |")
        Output.line("|---:|---:|---:|---:|---:|---:|---:|")
        var lasts: [Double] = []
        for round in 1 ... rounds {
          let pids = suite.processIdentifiers
          let before = pids.compactMapValues { ProcessUsage.of(processIdentifier: $0) }
          let start = ContinuousClock.now
          try await delay(scheduling, run, minutes: Int32(round + 1), admin: admin)
          let acknowledged = ContinuousClock.now - start
          try await receipts.waitForAll(count: round + 1)
          let latencies = receipts.latencies(ofReceipt: round, since: start).sorted()
          let cpu = pids.compactMapValues { pid in ProcessUsage.of(processIdentifier: pid) }
          func cpuMilliseconds(_ name: String) -> String {
            guard let earlier = before[name], let later = cpu[name] else { return "-" }
            return String(format: "%.0f", Double(later.since(earlier).cpuNanoseconds) / 1e6)
          }
          let last = latencies.last ?? 0
          lasts.append(last)
          Output.line(
            "| \(round) | \(milliseconds(acknowledged)) | \(String(format: "%.0f", last)) "
              + "| \(String(format: "%.0f", percentile(latencies, 0.5))) | \(String(format: "%.0f", percentile(latencies, 0.99))) "
              + "| \(cpuMilliseconds("scheduling")) | \(cpuMilliseconds("gateway")) |"
          )
        }
        let median = lasts.sorted()[lasts.count / 2]
        Output.line()
        Output.line("delay → last of \(followers) followers: median \(String(format: "%.0f", median)) ms over \(rounds) rounds (target: under 1000)")
      }
    }
  }

  @discardableResult
  static func delay(
    _ scheduling: Scheduling,
    _ run: Binario_Scheduling_V1_RunRef,
    minutes: Int32,
    admin: String
  ) async throws
    -> Binario_Scheduling_V1_DelayRunResponse
  {
    try await scheduling.delayRun(
      .with {
        $0.run = run
        $0.minutes = minutes
        $0.reason = "scheduling-bench"
      },
      metadata: ["authorization": "Bearer \(admin)"]
    )
  }
}

/// When each follower's stream received each notification, and a way to wait until all have.
final class Receipts: Sendable {
  private struct State {
    var times: [[ContinuousClock.Instant]]
    var complete: [Int]  // how many followers have received at least k+1 notifications
    var waiters: [(count: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var failure: BenchError?
  }

  private let state: Mutex<State>
  let followers: Int

  init(followers: Int) {
    self.followers = followers
    self.state = Mutex(State(times: Array(repeating: [], count: followers), complete: []))
  }

  func record(follower: Int, at instant: ContinuousClock.Instant) {
    let ready: [CheckedContinuation<Void, any Error>] = state.withLock { state in
      state.times[follower].append(instant)
      let received = state.times[follower].count
      while state.complete.count < received { state.complete.append(0) }
      state.complete[received - 1] += 1
      var ready: [CheckedContinuation<Void, any Error>] = []
      state.waiters.removeAll { waiter in
        guard state.complete.count >= waiter.count, state.complete[waiter.count - 1] == followers else { return false }
        ready.append(waiter.continuation)
        return true
      }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// A stream ended or failed: waiting for every follower would never end, so the waits throw.
  func fail(_ message: String) {
    let waiters = state.withLock { state in
      if state.failure == nil { state.failure = BenchError(message: message) }
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.continuation.resume(throwing: BenchError(message: message)) }
  }

  /// Returns once every follower has received `count` notifications; throws once a stream ended.
  func waitForAll(count: Int) async throws {
    try await withCheckedThrowingContinuation { continuation in
      let outcome = state.withLock { state -> Result<Bool, BenchError> in
        if let failure = state.failure { return .failure(failure) }
        if state.complete.count >= count, state.complete[count - 1] == followers { return .success(true) }
        state.waiters.append((count, continuation))
        return .success(false)
      }
      switch outcome {
      case .failure(let error): continuation.resume(throwing: error)
      case .success(true): continuation.resume()
      case .success(false): break
      }
    }
  }

  /// Each follower's latency, in ms, from `start` to their `index`-th receipt (0-based).
  func latencies(ofReceipt index: Int, since start: ContinuousClock.Instant) -> [Double] {
    state.withLock { state in
      state.times.compactMap { times in times.count > index ? milliseconds(of: times[index] - start) : nil }
    }
  }
}

/// Runs `body` for each element, at most `width` at once.
func forEachConcurrently(_ range: Range<Int>, width: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
  try await withThrowingTaskGroup(of: Void.self) { group in
    var next = range.lowerBound
    while next < range.upperBound && next - range.lowerBound < width {
      let index = next
      group.addTask { try await body(index) }
      next += 1
    }
    while try await group.next() != nil {
      guard next < range.upperBound else { continue }
      let index = next
      group.addTask { try await body(index) }
      next += 1
    }
  }
}

func milliseconds(of duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

func milliseconds(_ duration: Duration) -> String { String(format: "%.0f", milliseconds(of: duration)) }
func seconds(_ duration: Duration) -> String { String(format: "%.1f", milliseconds(of: duration) / 1000) }

/// Nearest-rank percentile of sorted values.
func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return 0 }
  let rank = Int((fraction * Double(sorted.count)).rounded(.up))
  return sorted[min(max(rank, 1), sorted.count) - 1]
}
