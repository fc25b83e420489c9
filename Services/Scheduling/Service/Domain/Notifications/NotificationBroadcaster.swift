import Foundation
import Synchronization

/// Hands each committed notification to its recipient's open live streams, in the order they
/// were made. In-process and push-based: no polling.
///
/// A stream holds at most ``capacity`` notifications its reader has not taken yet. A reader that
/// falls that far behind has its stream ended rather than anything dropped silently: it
/// reconnects with its last cursor and gets the rest from the inbox.
public final class NotificationBroadcaster: Sendable {
  private struct State {
    var subscribers: [String: [UUID: AsyncStream<UserNotification>.Continuation]] = [:]
    var count = 0
    var isClosed = false
  }

  private let state = Mutex(State())
  public let capacity: Int

  public init(capacity: Int = 1_000) {
    self.capacity = capacity
  }

  /// The notifications published for `userID` from now on, and the continuation that ends
  /// them when finished (an abandoned call's). The stream ends when its reader stops, at
  /// ``close()``, or when the reader falls ``capacity`` behind.
  public func subscription(userID: String) -> (stream: AsyncStream<UserNotification>, continuation: AsyncStream<UserNotification>.Continuation) {
    let (stream, continuation) = AsyncStream.makeStream(
      of: UserNotification.self,
      bufferingPolicy: .bufferingOldest(self.capacity)
    )
    let id = UUID()
    let subscribed = self.state.withLock { state in
      guard !state.isClosed else { return false }
      state.subscribers[userID, default: [:]][id] = continuation
      state.count += 1
      return true
    }
    guard subscribed else {
      continuation.finish()
      return (stream, continuation)
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { state in
        guard state.subscribers[userID]?.removeValue(forKey: id) != nil else { return }
        state.count -= 1
        if state.subscribers[userID]?.isEmpty == true { state.subscribers[userID] = nil }
      }
    }
    return (stream, continuation)
  }

  /// Sends each notification to its recipient's streams. Call it in commit order (the store
  /// does, from its writer after each commit), so every stream sees increasing cursors.
  public func publish(_ notifications: [UserNotification]) {
    guard !notifications.isEmpty else { return }
    let deliveries: [(AsyncStream<UserNotification>.Continuation, UserNotification)] = self.state.withLock { state in
      guard state.count > 0 else { return [] }
      var deliveries: [(AsyncStream<UserNotification>.Continuation, UserNotification)] = []
      for notification in notifications {
        guard let streams = state.subscribers[notification.userID] else { continue }
        for continuation in streams.values { deliveries.append((continuation, notification)) }
      }
      return deliveries
    }
    // Outside the lock: `finish()` runs `onTermination`, which takes it.
    for (continuation, notification) in deliveries {
      if case .dropped = continuation.yield(notification) { continuation.finish() }
    }
  }

  /// Ends every stream, and later ones at once: the process is shutting down, and watchers
  /// should reconnect (to this process once it is back) rather than hold the drain open.
  public func close() {
    let ended = self.state.withLock { state in
      state.isClosed = true
      defer {
        state.subscribers.removeAll()
        state.count = 0
      }
      return state.subscribers.values.flatMap(\.values)
    }
    for continuation in ended { continuation.finish() }
  }

  /// How many streams are open.
  public var subscriberCount: Int {
    self.state.withLock { $0.count }
  }
}
