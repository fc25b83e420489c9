import Foundation
import Synchronization

/// The gateway's sense of time, injected so tests control it: wall-clock time for token expiry
/// and how long a revoked session is remembered, monotonic time for rate limits and caches.
public protocol GatewayClock: Sendable {
  /// Now, as wall-clock time.
  var now: Date { get }
  /// Time since an arbitrary fixed point; never goes backwards.
  var uptime: Duration { get }
}

/// The real clock.
public struct SystemGatewayClock: GatewayClock {
  private let start = ContinuousClock.now

  public init() {}

  public var now: Date { Date() }
  public var uptime: Duration { ContinuousClock.now - self.start }
}

/// A clock that moves only when told to: for tests.
public final class ManualGatewayClock: GatewayClock {
  private let state: Mutex<(now: Date, uptime: Duration)>

  public init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.state = Mutex((now, .zero))
  }

  public var now: Date { self.state.withLock { $0.now } }
  public var uptime: Duration { self.state.withLock { $0.uptime } }

  /// Moves both readings forward by `duration`.
  public func advance(by duration: Duration) {
    self.state.withLock { state in
      state.uptime += duration
      let (seconds, attoseconds) = duration.components
      state.now += Double(seconds) + Double(attoseconds) / 1e18
    }
  }
}
