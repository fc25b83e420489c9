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
  private let streams = Mutex(StreamFigures())

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

  func streamOpened() { streams.withLock { $0.opened += 1 } }
  func streamMessage() { streams.withLock { $0.messages += 1 } }
  func streamFailed(_ failure: CallFailure) {
    streams.withLock {
      $0.failures[failure.code, default: 0] += 1
      $0.example = failure.description
    }
  }

  var snapshot: (operations: [String: Operation], streams: StreamFigures) {
    (operations.withLock { $0 }, streams.withLock { $0 })
  }
}

/// The notification streams kept open during a run.
public struct StreamFigures: Sendable, Codable {
  public var opened = 0
  public var messages = 0
  public var failures: [String: Int] = [:]
  public var example: String?
}
