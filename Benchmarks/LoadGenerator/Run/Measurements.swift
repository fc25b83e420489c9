import Histogram
import Synchronization

/// Each operation's latencies (HdrHistogram, microseconds, three significant digits, up to a
/// minute) and failures by code, recorded from many tasks at once.
final class Measurements: Sendable {
  struct Operation: Sendable {
    var latencies = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    var failures: [String: Int] = [:]
    /// One message per failure code, to say what went wrong.
    var examples: [String: String] = [:]
  }

  private let operations = Mutex<[String: Operation]>([:])

  func succeeded(_ operation: String, microseconds: UInt64) {
    operations.withLock { _ = $0[operation, default: Operation()].latencies.record(max(1, microseconds)) }
  }

  func failed(_ operation: String, _ failure: CallFailure, microseconds: UInt64) {
    operations.withLock {
      _ = $0[operation, default: Operation()].latencies.record(max(1, microseconds))
      $0[operation, default: Operation()].failures[failure.code, default: 0] += 1
      $0[operation]!.examples[failure.code] = failure.message
    }
  }

  var snapshot: [String: Operation] { operations.withLock { $0 } }
}

/// What the notification streams did, for the run under way: the streams may outlive a run
/// (``LoadGenerator/withNotificationStreamsOpen(_:)``), so they report here and each run takes its
/// figures at its end.
final class StreamRecorder: Sendable {
  private struct State {
    var open = 0
    var figures = StreamFigures()
  }

  private let state = Mutex(State())

  func opened() {
    state.withLock {
      $0.open += 1
      $0.figures.opened += 1
    }
  }

  func message() { state.withLock { $0.figures.messages += 1 } }

  /// The stream ended: by the generator when `failure` is nil, else counted as a failure.
  func closed(_ failure: CallFailure?) {
    state.withLock {
      $0.open -= 1
      if let failure {
        $0.figures.failures[failure.code, default: 0] += 1
        $0.figures.example = failure.description
      }
    }
  }

  /// The figures since the last call, with the streams open now.
  func takeFigures() -> StreamFigures {
    state.withLock {
      var figures = $0.figures
      figures.open = $0.open
      $0.figures = StreamFigures()
      return figures
    }
  }
}

/// The notification streams kept open during a run.
public struct StreamFigures: Sendable, Codable {
  /// Open when the run ended.
  public var open = 0
  /// Opened during the run (a failed stream is opened again).
  public var opened = 0
  public var messages = 0
  public var failures: [String: Int] = [:]
  public var example: String?
}
