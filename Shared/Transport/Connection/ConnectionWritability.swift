import NIOConcurrencyHelpers

/// Whether a connection's socket accepts more bytes, readable from any thread, so writers in
/// Swift concurrency can wait for room instead of letting outbound buffers grow without bound.
///
/// The connection handler updates it on its event loop as the channel's writability changes.
final class ConnectionWritability: Sendable {
  private struct State {
    var isWritable = true
    var isClosed = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = NIOLockedValueBox(State())

  /// Whether the socket takes more bytes right now.
  var isWritable: Bool {
    self.state.withLockedValue { $0.isWritable && !$0.isClosed }
  }

  /// Returns once the connection is writable (or closed: the write that follows then fails).
  func waitUntilWritable() async {
    if self.state.withLockedValue({ $0.isWritable || $0.isClosed }) { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = self.state.withLockedValue { state -> Bool in
        if state.isWritable || state.isClosed { return true }
        state.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  func update(isWritable: Bool) {
    let waiters = self.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
      state.isWritable = isWritable
      guard isWritable else { return [] }
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func close() {
    let waiters = self.state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
      state.isClosed = true
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
