import Foundation
import Synchronization

/// Hands what was committed to the live streams open on its key (a board's readings to whoever
/// watches that board). In-process and push-based: no polling.
///
/// A stream holds at most `capacity` elements its reader has not taken yet. What happens to a
/// reader that falls that far behind is the ``Overflow`` chosen.
public final class KeyedBroadcast<Key: Hashable & Sendable, Element: Sendable>: Sendable {
  /// What a stream `capacity` behind does with the next element.
  public enum Overflow: Sendable {
    /// Its stream ends rather than anything dropped silently: the reader opens a new one and
    /// reads what it missed from the store.
    case end
    /// The oldest unread element is dropped: for streams whose elements each carry the whole
    /// current state (a ride as it is now), or only that something changed (capacity 1).
    case dropOldest
  }

  private struct State {
    var open: [Key: [UUID: AsyncStream<Element>.Continuation]] = [:]
    var isClosed = false
  }

  private let state = Mutex(State())
  public let capacity: Int
  public let overflow: Overflow

  public init(capacity: Int = 1_000, overflow: Overflow = .end) {
    self.capacity = capacity
    self.overflow = overflow
  }

  /// What is published to any of `keys` from now on, and the function that ends the stream (an
  /// abandoned call's). The stream also ends when its reader stops, at ``close()``, or (with
  /// ``Overflow/end``) when the reader falls ``capacity`` behind.
  public func subscribe(_ keys: Set<Key>) -> (stream: AsyncStream<Element>, end: @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self,
      bufferingPolicy: overflow == .end ? .bufferingOldest(capacity) : .bufferingNewest(capacity)
    )
    let id = UUID()
    let subscribed = state.withLock { state in
      guard !state.isClosed else { return false }
      for key in keys { state.open[key, default: [:]][id] = continuation }
      return true
    }
    guard subscribed else {
      continuation.finish()
      return (stream, {})
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { state in
        for key in keys {
          state.open[key]?[id] = nil
          if state.open[key]?.isEmpty == true { state.open[key] = nil }
        }
      }
    }
    return (stream, { continuation.finish() })
  }

  /// Sends `element` to every stream open on `key`. Call it after the commit, in commit order.
  public func publish(_ element: Element, to key: Key) {
    let streams = state.withLock { Array(($0.open[key] ?? [:]).values) }
    // Outside the lock: `finish()` runs `onTermination`, which takes it.
    for continuation in streams {
      if case .dropped = continuation.yield(element), overflow == .end { continuation.finish() }
    }
  }

  /// How many streams are open on `key`.
  public func subscriberCount(_ key: Key) -> Int {
    state.withLock { $0.open[key]?.count ?? 0 }
  }

  /// Whether ``close()`` ended the streams (the process is shutting down).
  public var isClosed: Bool { state.withLock { $0.isClosed } }

  /// Ends every stream, and later ones at once: the process is shutting down, and watchers
  /// should reconnect (to this process once it is back) rather than hold the drain open.
  public func close() {
    let ended = state.withLock { state in
      state.isClosed = true
      defer { state.open.removeAll() }
      return state.open.values.flatMap(\.values)
    }
    for continuation in ended { continuation.finish() }
  }
}
