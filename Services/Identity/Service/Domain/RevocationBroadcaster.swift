import Foundation
import Synchronization

/// Hands each session revocation, as it happens, to everyone watching (the gateway's
/// `WatchRevocations` calls). In-process and push-based: no polling.
///
/// A subscriber's stream is unbounded: revocations are rare and small, and dropping one would
/// let a revoked token through.
public final class RevocationBroadcaster: Sendable {
  private struct State {
    var subscribers: [UUID: AsyncStream<SessionRevocation>.Continuation] = [:]
    var isClosed = false
  }

  private let state = Mutex(State())

  public init() {}

  /// A stream of the revocations published from now on; it ends when the consumer stops
  /// iterating (the stream is dropped or its task cancelled), or at ``close()`` (at once if
  /// already closed).
  public func subscribe() -> AsyncStream<SessionRevocation> {
    let (stream, continuation) = AsyncStream.makeStream(of: SessionRevocation.self, bufferingPolicy: .unbounded)
    let id = UUID()
    let subscribed = self.state.withLock { state in
      guard !state.isClosed else { return false }
      state.subscribers[id] = continuation
      return true
    }
    guard subscribed else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
    }
    return stream
  }

  /// Ends every subscriber's stream, and those of later subscribers at once: the process is
  /// shutting down, and watchers (the gateways) should follow the feed elsewhere or later rather
  /// than hold the graceful shutdown open.
  public func close() {
    let ended = self.state.withLock { state in
      state.isClosed = true
      defer { state.subscribers.removeAll() }
      return Array(state.subscribers.values)
    }
    // Outside the lock: `finish()` runs `onTermination`, which takes it.
    for continuation in ended { continuation.finish() }
  }

  /// Sends `revocation` to every current subscriber (nothing if it names no session).
  public func publish(_ revocation: SessionRevocation) {
    guard !revocation.sessionIDs.isEmpty else { return }
    for continuation in self.state.withLock({ Array($0.subscribers.values) }) {
      continuation.yield(revocation)
    }
  }

  /// How many are watching (for tests and health).
  public var subscriberCount: Int {
    self.state.withLock { $0.subscribers.count }
  }
}
