import Foundation
import Synchronization

/// The wall clock moved ahead by an offset that can be changed while the process runs: what a
/// service started with `--test-clock` reads, so an end-to-end test can pass two hours in a
/// moment (a reservation's dispatch, a driver's wait) without sleeping. Jobs waiting on
/// ``AdjustableJobTimer`` wake as soon as the clock moves past their time.
public final class AdjustableClock: DomainClock {
  private let offset = Mutex<TimeInterval>(0)
  private let moves = KeyedBroadcast<Int, Void>(capacity: 1, overflow: .dropOldest)

  public init(offset: TimeInterval = 0) {
    self.offset.withLock { $0 = offset }
  }

  public func now() -> Date {
    Date().addingTimeInterval(offset.withLock { $0 })
  }

  /// How far ahead of the wall clock it is.
  public var currentOffset: TimeInterval { offset.withLock { $0 } }

  /// Sets how far ahead of the wall clock it is (never backwards: a clock that went back would
  /// let jobs run twice) and wakes whoever waits on it.
  public func set(offset newOffset: TimeInterval) {
    offset.withLock { $0 = max($0, newOffset) }
    moves.publish((), to: 0)
  }

  /// A stream that yields each time the clock is moved, until `end` is called.
  func watchMoves() -> (stream: AsyncStream<Void>, end: @Sendable () -> Void) {
    moves.subscribe([0])
  }
}

/// Sleeps by an ``AdjustableClock``: a wait of an hour ends after an hour of real time, or at
/// once when the clock is moved an hour ahead.
public struct AdjustableJobTimer: JobTimer {
  let clock: AdjustableClock

  public init(clock: AdjustableClock) {
    self.clock = clock
  }

  public func sleep(for duration: Duration) async throws {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    try await sleep(until: clock.now().addingTimeInterval(seconds))
  }

  /// Waits until the clock reads `target` (real time passing, or the clock moved).
  public func sleep(until target: Date) async throws {
    while true {
      try Task.checkCancellation()
      // Watching before looking: a move between the look and the wait still wakes it. Each
      // wait watches anew, since a cancelled read ends its stream.
      let (moved, end) = clock.watchMoves()
      let remaining = target.timeIntervalSince(clock.now())
      if remaining <= 0 {
        end()
        break
      }
      // Whichever comes first: the remaining real time, or the clock moving.
      await withTaskGroup(of: Void.self) { group in
        group.addTask { try? await Task.sleep(for: .milliseconds(Int64(max(1, (remaining * 1000).rounded(.up))))) }
        group.addTask {
          var iterator = moved.makeAsyncIterator()
          _ = await iterator.next()
        }
        await group.next()
        group.cancelAll()
      }
      end()
    }
    try Task.checkCancellation()
  }
}
