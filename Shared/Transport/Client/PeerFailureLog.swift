import Logging

/// How loudly to log a failed attempt to reach another process of the suite.
///
/// The suite's processes start at once, each calling the others when it needs them, so a peer
/// that never answered yet refuses the first attempts while it starts: those are information. A
/// peer that answered before and stopped, or still refuses after ``expectedAtStart`` attempts
/// (about a second with the usual backoff), is a warning.
public enum PeerFailureLog {
  public static let expectedAtStart = 4

  /// The level for the `attempt`th failure in a row (from 1).
  public static func level(attempt: Int, peerAnsweredBefore: Bool) -> Logger.Level {
    peerAnsweredBefore || attempt > expectedAtStart ? .warning : .info
  }
}
