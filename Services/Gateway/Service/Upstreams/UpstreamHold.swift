import Prometheus
import Synchronization

/// How the gateway holds calls to an upstream that is briefly unavailable (restarting, or being
/// replaced in a rolling update) instead of failing them at once: each call waits for the
/// upstream at most ``maximumWait`` from its arrival (and never past its own deadline), and at
/// most ``maximumCalls`` calls carrying ``maximumBytes`` of request are held per upstream; a
/// call beyond either gets `UNAVAILABLE` at once, as without holding.
public struct UpstreamHold: Sendable, Hashable {
  public var maximumWait: Duration
  public var maximumCalls: Int
  /// Of held requests' first messages (what the gateway keeps to send them again).
  public var maximumBytes: Int

  public init(maximumWait: Duration = .seconds(10), maximumCalls: Int = 1000, maximumBytes: Int = 64 << 20) {
    self.maximumWait = maximumWait
    self.maximumCalls = maximumCalls
    self.maximumBytes = maximumBytes
  }

  /// Ten seconds, 1,000 calls, 64 MiB per upstream: a restart here takes well under a second;
  /// a Kubernetes rolling update of a StatefulSet a few seconds.
  public static var defaults: Self { Self() }
}

/// The calls held for one upstream now, against ``UpstreamHold``'s bounds, shown as
/// `gateway_held_calls{upstream}`.
final class HeldCalls: Sendable {
  private let bounds: UpstreamHold
  private let held = Mutex<(calls: Int, bytes: Int)>((0, 0))
  private let gauge: Gauge?

  init(bounds: UpstreamHold, gauge: Gauge?) {
    self.bounds = bounds
    self.gauge = gauge
  }

  /// Takes a place for a call whose request is `bytes` long; `false` when the upstream's
  /// places are full.
  func enter(bytes: Int) -> Bool {
    let count = self.held.withLock { held -> Int? in
      guard held.calls < self.bounds.maximumCalls, held.bytes + bytes <= self.bounds.maximumBytes else { return nil }
      held.calls += 1
      held.bytes += bytes
      return held.calls
    }
    guard let count else { return false }
    self.gauge?.set(Int64(count))
    return true
  }

  /// The calls held now.
  var count: Int { self.held.withLock { $0.calls } }

  func leave(bytes: Int) {
    let count = self.held.withLock { held in
      held.calls -= 1
      held.bytes -= bytes
      return held.calls
    }
    self.gauge?.set(Int64(count))
  }
}
