import NIOConcurrencyHelpers

/// The frames one call's writer hands over from outside the event loop, waiting for the loop to
/// write them.
///
/// Everything queued before the loop gets to the call leaves in one hop and one flush, so a
/// handler answering a unary call (headers, message, end) costs one hop, not three. The queue
/// also bounds what a writer can pile up ahead of the loop: once it holds `limit` bytes or more,
/// ``waitForRoom()`` suspends the writer until the loop has taken the frames. Together with the
/// channel's own writability this keeps a fast writer to roughly `limit` + one message + the
/// channel's high watermark per call, whatever the reader on the other side does.
final class OutboundFrameQueue: Sendable {
  private struct State {
    var frames: [WireFrame] = []
    var bytes = 0
    var drainScheduled = false
    var isClosed = false
    var roomWaiters: [CheckedContinuation<Void, Never>] = []
  }

  /// Queued bytes at which writers wait for the loop.
  let limit: Int
  private let state = NIOLockedValueBox(State())

  init(limit: Int) {
    self.limit = limit
  }

  /// Queues `frames` carrying `bytes` of payload. Returns `true` when the caller must schedule a
  /// drain on the event loop (none is pending yet).
  func enqueue(_ frames: some Sequence<WireFrame>, bytes: Int) -> Bool {
    self.state.withLockedValue { state in
      state.frames.append(contentsOf: frames)
      state.bytes += bytes
      defer { state.drainScheduled = true }
      return !state.drainScheduled
    }
  }

  /// Takes everything queued (on the event loop, in the scheduled drain) and lets waiting writers
  /// go on.
  func takeAll() -> [WireFrame] {
    let (frames, waiters) = self.state.withLockedValue { state in
      defer {
        state.frames = []
        state.bytes = 0
        state.drainScheduled = false
        state.roomWaiters = []
      }
      return (state.frames, state.roomWaiters)
    }
    for waiter in waiters { waiter.resume() }
    return frames
  }

  /// Whether a writer may queue more without waiting.
  var hasRoom: Bool {
    self.state.withLockedValue { $0.bytes < self.limit || $0.isClosed }
  }

  /// Returns once the queue is below its limit (or closed).
  func waitForRoom() async {
    if self.hasRoom { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = self.state.withLockedValue { state -> Bool in
        if state.bytes < self.limit || state.isClosed { return true }
        state.roomWaiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// The call is over: nothing more will be written, waiting writers go on (and find it over).
  func close() {
    let waiters = self.state.withLockedValue { state in
      state.isClosed = true
      state.frames = []
      state.bytes = 0
      defer { state.roomWaiters = [] }
      return state.roomWaiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
