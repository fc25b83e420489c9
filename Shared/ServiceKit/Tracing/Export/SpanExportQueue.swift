import BinarioTracing
import Synchronization

/// The ended spans waiting for the exporter: appended under a lock by whichever thread ends a
/// span, taken in batches by ``OTLPSpanExporter``'s one task.
///
/// Appending never waits and starts nothing: only the span that completes a batch wakes the
/// exporter (if it is waiting). A full queue drops new spans and counts them, as OpenTelemetry's
/// batch processor does: a collector that is slow or away must not hold calls up.
final class SpanExportQueue: FinishedSpanSink {
  private struct State {
    var spans: [FinishedSpan] = []
    var dropped = 0
    var closed = false
    /// The exporter's wait for a full batch, if it is waiting.
    var waiter: CheckedContinuation<Void, Never>?
    /// A wake-up that came while no one waited: the next wait returns at once.
    var woken = false
  }

  let maxQueueSize: Int
  let batchSize: Int
  private let state = Mutex(State())

  init(maxQueueSize: Int, batchSize: Int) {
    self.maxQueueSize = maxQueueSize
    self.batchSize = min(batchSize, maxQueueSize)
  }

  func append(_ span: FinishedSpan) {
    let waiter: CheckedContinuation<Void, Never>? = self.state.withLock { state in
      guard state.spans.count < self.maxQueueSize else {
        state.dropped += 1
        return nil
      }
      state.spans.append(span)
      guard state.spans.count >= self.batchSize else { return nil }
      return Self.wake(&state)
    }
    waiter?.resume()
  }

  /// Stops waiting: the exporter sends what is queued and ends.
  func close() {
    self.state.withLock { state in
      state.closed = true
      return Self.wake(&state)
    }?.resume()
  }

  /// Up to one batch of spans, oldest first; whether the queue is closed; how many spans were
  /// dropped since the last take.
  func take() -> (spans: [FinishedSpan], closed: Bool, dropped: Int) {
    self.state.withLock { state in
      let count = min(state.spans.count, self.batchSize)
      let batch = Array(state.spans.prefix(count))
      state.spans.removeFirst(count)
      let dropped = state.dropped
      state.dropped = 0
      state.woken = false
      return (batch, state.closed, dropped)
    }
  }

  var isEmpty: Bool { self.state.withLock { $0.spans.isEmpty } }

  /// Returns when a batch is full, the queue is closed, or `delay` has passed on `clock`.
  func waitForBatch<C: Clock>(delay: Duration, clock: C) async where C.Duration == Duration {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { try? await clock.sleep(for: delay) }
      group.addTask { await self.untilBatchOrClose() }
      await group.next()
      group.cancelAll()
    }
  }

  private func untilBatchOrClose() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now: Bool = self.state.withLock { state in
          if state.woken || state.closed || state.spans.count >= self.batchSize {
            state.woken = false
            return true
          }
          state.waiter = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      self.state.withLock { Self.wake(&$0) }?.resume()
    }
  }

  /// The waiter to resume, if one waits; otherwise the wake-up is kept for the next wait.
  private static func wake(_ state: inout State) -> CheckedContinuation<Void, Never>? {
    guard let waiter = state.waiter else {
      state.woken = true
      return nil
    }
    state.waiter = nil
    return waiter
  }
}
