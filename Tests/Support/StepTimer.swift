import BinarioDomain
import Synchronization

/// A timer the test releases: each sleep is announced on `requests` and lasts until `fire()`.
public final class StepTimer: JobTimer {
  public let requests: AsyncStream<Duration>
  private let requested: AsyncStream<Duration>.Continuation
  private let sleepers = Mutex<[AsyncStream<Void>.Continuation]>([])

  public init() {
    (requests, requested) = AsyncStream.makeStream()
  }

  public func sleep(for duration: Duration) async throws {
    let (released, release) = AsyncStream<Void>.makeStream()
    sleepers.withLock { $0.append(release) }
    requested.yield(duration)
    for await _ in released { return }
    throw CancellationError()
  }

  /// Ends the oldest sleep still going.
  public func fire() {
    let sleeper = sleepers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    sleeper?.yield()
  }
}
