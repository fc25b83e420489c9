import Synchronization

/// Where a process's call listener is in its life, as `/readyz` needs to know it: a process is
/// ready to take calls only while its listener is ``Phase/listening``.
///
/// Phases only move forward (starting → listening → draining → closed); a late report of an
/// earlier phase (the bound address logged after shutdown began) changes nothing.
public final class ListenerState: Sendable {
  public enum Phase: UInt8, Sendable, CustomStringConvertible {
    /// Not bound yet.
    case starting
    /// Bound and taking calls.
    case listening
    /// Graceful shutdown began: new calls are refused, open ones finish.
    case draining
    /// Stopped.
    case closed

    public var description: String {
      switch self {
      case .starting: "starting"
      case .listening: "listening"
      case .draining: "draining (graceful shutdown)"
      case .closed: "closed"
      }
    }
  }

  private let rawPhase = Atomic<UInt8>(Phase.starting.rawValue)

  public init() {}

  public var phase: Phase {
    Phase(rawValue: self.rawPhase.load(ordering: .acquiring)) ?? .closed
  }

  /// Moves to `phase` unless the listener is already past it.
  public func advance(to phase: Phase) {
    var current = self.rawPhase.load(ordering: .relaxed)
    while current < phase.rawValue {
      let (exchanged, original) = self.rawPhase.compareExchange(
        expected: current,
        desired: phase.rawValue,
        ordering: .acquiringAndReleasing
      )
      if exchanged { return }
      current = original
    }
  }
}
