import BinarioTransport
import Foundation
import NIOCore

/// Echo calls on the frame layer alone: a unary call is one `Open` frame carrying the payload
/// and the half-close; the answer is a `Message` and an `End`.
struct FrameEchoLoad: EchoLoad {
  let connection: BinarioClientConnection
  let method: String
  let payload: Data

  func run(concurrency: Int, for duration: Duration) async throws -> LoadResult {
    let request = BinarioCallRequest(method: self.method, firstMessage: self.payload, halfClose: true)
    let loop = self.connection.eventLoop
    let finished = loop.makePromise(of: LoadResult.self)
    loop.execute {
      FrameLoadDriver(
        connection: self.connection,
        request: request,
        concurrency: concurrency,
        duration: duration,
        finished: finished
      ).start()
    }
    return try await finished.futureResult.get()
  }
}

/// Drives the calls of one ``FrameEchoLoad`` run entirely on the connection's event loop.
///
/// Each of `concurrency` slots opens a call; when its `End` arrives (on the event loop, inside
/// the read burst) the slot records the latency and opens its next call right there, so the
/// next `Open` frames leave with the same flush. No Swift concurrency is involved: this is the
/// frame layer's own cost.
private final class FrameLoadDriver {
  private let connection: BinarioClientConnection
  private let request: BinarioCallRequest
  private let concurrency: Int
  private let duration: TimeAmount
  private let finished: EventLoopPromise<LoadResult>

  private var started = NIODeadline.now()
  private var deadline = NIODeadline.now()
  private var slotStarts: [NIODeadline]
  /// Whether the slot's current call has had its echo back (a `Message` before the `End`).
  private var slotAnswered: [Bool]
  private var activeSlots = 0
  private var latencies: [UInt64] = []
  private var failure: EchoCallFailed?

  init(
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
    self.slotStarts = Array(repeating: .now(), count: concurrency)
    self.slotAnswered = Array(repeating: false, count: concurrency)
    self.latencies.reserveCapacity(1 << 16)
  }

  func start() {
    self.started = .now()
    self.deadline = self.started + self.duration
    self.activeSlots = self.concurrency
    for slot in 0 ..< self.concurrency {
      self.startCall(slot: slot)
    }
  }

  private func startCall(slot: Int) {
    self.slotStarts[slot] = .now()
    self.slotAnswered[slot] = false
    let driver = NIOLoopBound(self, eventLoop: self.connection.eventLoop)
    _ = self.connection.openCall(self.request) { event in
      switch event {
      case .headers:
        break
      case .message:
        driver.value.slotAnswered[slot] = true
      case .end(let end):
        driver.value.callEnded(slot: slot, end: end)
      }
    }
  }

  private func callEnded(slot: Int, end: WireEnd) {
    let now = NIODeadline.now()
    self.latencies.append(UInt64((now - self.slotStarts[slot]).nanoseconds))
    if self.failure == nil {
      if end.statusCode != WireStatusCode.ok {
        self.failure = EchoCallFailed(code: end.statusCode, message: end.statusMessage)
      } else if !self.slotAnswered[slot] {
        self.failure = EchoCallFailed(code: end.statusCode, message: "the call ended OK without echoing a message")
      }
    }
    if self.failure == nil && now < self.deadline {
      self.startCall(slot: slot)
      return
    }
    self.activeSlots -= 1
    guard self.activeSlots == 0 else { return }
    if let failure = self.failure {
      self.finished.fail(failure)
    } else {
      let elapsed = Duration.nanoseconds((now - self.started).nanoseconds)
      self.finished.succeed(LoadResult(latencies: self.latencies, elapsed: elapsed))
    }
  }
}
