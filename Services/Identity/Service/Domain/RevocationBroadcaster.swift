import Foundation
import Synchronization

/// Hands each session revocation, as it happens, to everyone watching (the gateway's
/// `WatchRevocations` calls). In-process and push-based: no polling.
///
/// A subscriber's stream is unbounded: revocations are rare and small, and dropping one would
/// let a revoked token through.
public final class RevocationBroadcaster: Sendable {
  private let subscribers = Mutex<[UUID: AsyncStream<SessionRevocation>.Continuation]>([:])

  public init() {}

  /// A stream of the revocations published from now on; it ends when the consumer stops
  /// iterating (the stream is dropped or its task cancelled).
  public func subscribe() -> AsyncStream<SessionRevocation> {
    let (stream, continuation) = AsyncStream.makeStream(of: SessionRevocation.self, bufferingPolicy: .unbounded)
    let id = UUID()
    continuation.onTermination = { [weak self] _ in
      _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
    }
    self.subscribers.withLock { $0[id] = continuation }
    return stream
  }

  /// Sends `revocation` to every current subscriber (nothing if it names no session).
  public func publish(_ revocation: SessionRevocation) {
    guard !revocation.sessionIDs.isEmpty else { return }
    for continuation in self.subscribers.withLock({ Array($0.values) }) {
      continuation.yield(revocation)
    }
  }

  /// How many are watching (for tests and health).
  public var subscriberCount: Int {
    self.subscribers.withLock { $0.count }
  }
}
