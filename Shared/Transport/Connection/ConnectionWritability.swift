import NIOConcurrencyHelpers

/// Whether a connection can take more bytes, readable from any thread, so writers in Swift
/// concurrency wait for room instead of letting buffers grow without bound.
///
/// Two things fill a connection: the channel's own outbound buffer (NIO's writability, which
/// turns false once the socket is full and the buffer passes its high watermark) and frames
/// queued from other threads that the event loop has not written yet. Writers wait while either
/// is over its limit.
final class ConnectionWritability: Sendable {
  private struct State {
    var channelWritable = true
    var queuedBytes = 0
    var isClosed = false
    var waiters: [CheckedContinuation<Void, Never>] = []

    var hasRoom: Bool {
      self.isClosed || (self.channelWritable && self.queuedBytes < ConnectionWritability.queuedBytesLimit)
    }
  }

  /// Frames queued off the event loop beyond this wait for the loop to catch up.
  static let queuedBytesLimit = 256 * 1024

  private let state = NIOLockedValueBox(State())

  /// Whether the socket takes more bytes right now (NIO's channel writability).
  var isChannelWritable: Bool {
    self.state.withLockedValue { $0.channelWritable && !$0.isClosed }
  }

  /// Returns once there is room (or the connection closed: the write that follows then fails).
  func waitUntilWritable() async {
    if self.state.withLockedValue({ $0.hasRoom }) { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = self.state.withLockedValue { state -> Bool in
        if state.hasRoom { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Frames of `bytes` were queued for the event loop.
  func queued(_ bytes: Int) {
    self.state.withLockedValue { $0.queuedBytes += bytes }
  }

  /// The event loop wrote queued frames of `bytes`.
  func dequeued(_ bytes: Int) {
    self.update { $0.queuedBytes -= bytes }
  }

  func update(channelWritable: Bool) {
    self.update { $0.channelWritable = channelWritable }
  }

  func close() {
    self.update { $0.isClosed = true }
  }

  private func update(_ change: (inout State) -> Void) {
    let waiters = self.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
      change(&state)
      guard state.hasRoom else { return [] }
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
