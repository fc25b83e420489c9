import BenchSupport
import BinarioTransport
import Foundation
import NIOCore

/// Keeps `concurrency` copies of one unary call in flight on one frame-layer connection for a
/// while, entirely on the connection's event loop: when a call ends, the next one opens at once.
final class FrameCallLoad {
  private let connection: BinarioClientConnection
  private let request: BinarioCallRequest
  private let concurrency: Int
  private let duration: TimeAmount
  private let finished: EventLoopPromise<LoadResult>
  private var started = NIODeadline.now()
  private var deadline = NIODeadline.now()
  private var active = 0
  private var latencies: [UInt64] = []
  private var failures = 0
  private var firstFailure: String?

  private init(
    connection: BinarioClientConnection,
    request: BinarioCallRequest,
    concurrency: Int,
    duration: Duration,
    finished: EventLoopPromise<LoadResult>
  ) {
    self.connection = connection
    self.request = request
    self.concurrency = concurrency
    let (seconds, attoseconds) = duration.components
    self.duration = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    self.finished = finished
    self.latencies.reserveCapacity(1 << 16)
  }

  /// Runs the load; `processes` (name → pid) are the processes whose usage the result reports.
  static func run(
    _ request: BinarioCallRequest,
    on connection: BinarioClientConnection,
    concurrency: Int,
    for duration: Duration,
    measuring processes: [String: Int32] = [:]
  ) async throws -> LoadResult {
    let before = processes.compactMapValues { ProcessUsage.of(processIdentifier: $0) }
    var result = try await Self.run(request, on: connection, concurrency: concurrency, duration: duration)
    for (name, pid) in processes {
      if let earlier = before[name], let now = ProcessUsage.of(processIdentifier: pid) {
        result.usage[name] = now.since(earlier)
      }
    }
    return result
  }

  private static func run(
    _ request: BinarioCallRequest,
    on connection: BinarioClientConnection,
    concurrency: Int,
    duration: Duration
  ) async throws -> LoadResult {
    let finished = connection.eventLoop.makePromise(of: LoadResult.self)
    connection.eventLoop.execute {
      let load = FrameCallLoad(connection: connection, request: request, concurrency: concurrency, duration: duration, finished: finished)
      load.started = .now()
      load.deadline = load.started + load.duration
      load.active = concurrency
      for _ in 0 ..< concurrency { load.startCall() }
    }
    return try await finished.futureResult.get()
  }

  private func startCall() {
    let start = NIODeadline.now()
    let bound = NIOLoopBound(self, eventLoop: self.connection.eventLoop)
    _ = self.connection.openCall(self.request) { event in
      guard case .end(let end) = event else { return }
      bound.value.ended(end, start: start)
    }
  }

  private func ended(_ end: WireEnd, start: NIODeadline) {
    let now = NIODeadline.now()
    if end.statusCode == WireStatusCode.ok {
      self.latencies.append(UInt64(max(0, (now - start).nanoseconds)))
    } else {
      self.failures += 1
      if self.firstFailure == nil { self.firstFailure = "status \(end.statusCode): \(end.statusMessage)" }
    }
    if now < self.deadline {
      self.startCall()
      return
    }
    self.active -= 1
    if self.active == 0 {
      self.finished.succeed(
        LoadResult(
          calls: self.latencies.count,
          failures: self.failures,
          elapsed: .nanoseconds((now - self.started).nanoseconds),
          latencies: self.latencies,
          firstFailure: self.firstFailure
        )
      )
    }
  }
}
