import Foundation
import Synchronization

/// Wakes whoever waits on something that changed (a timetable, a queue), without saying what:
/// each watcher reads the new state itself. Wake-ups coalesce: a watcher busy reading gets one
/// more wake-up, however many changes happened meanwhile, so a burst of writes costs a slow
/// reader one extra read, never a backlog.
public final class ChangeSignal: Sendable {
  private let watchers = Mutex<[UUID: AsyncStream<Void>.Continuation]>([:])

  public init() {}

  /// Wake-ups from now on, until the stream's reader goes away or `continuation.finish()`. The
  /// continuation may be yielded to by the watcher too (a timer of its own).
  public func watch() -> (wakeUps: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) {
    let id = UUID()
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    continuation.onTermination = { [weak self] _ in
      _ = self?.watchers.withLock { $0.removeValue(forKey: id) }
    }
    self.watchers.withLock { $0[id] = continuation }
    return (stream, continuation)
  }

  /// Wakes every watcher.
  public func signal() {
    for continuation in self.watchers.withLock({ Array($0.values) }) {
      continuation.yield()
    }
  }

  /// Ends every watcher's stream (its `for await` loop ends).
  public func finishAll() {
    for continuation in self.watchers.withLock({ Array($0.values) }) {
      continuation.finish()
    }
  }

  /// How many are watching.
  public var watcherCount: Int { self.watchers.withLock { $0.count } }
}
