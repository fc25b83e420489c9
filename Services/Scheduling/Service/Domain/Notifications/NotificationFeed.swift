/// One user's notifications for a live stream: first the backlog (those made after the
/// client's cursor), then the live ones not already in it. A plain sequence over the
/// broadcaster's stream, with no task of its own: ten thousand open streams are ten thousand
/// of these.
public struct NotificationFeed: AsyncSequence, Sendable {
  public typealias Element = UserNotification

  let backlog: [UserNotification]
  let live: AsyncStream<UserNotification>
  let ending: @Sendable () -> Void
  /// The last sequence the backlog (or the cursor) covered.
  let after: Int64

  /// Ends the feed (the call is over): a reader waiting for the next notification gets `nil`.
  public func end() {
    ending()
  }

  public struct AsyncIterator: AsyncIteratorProtocol {
    var backlog: IndexingIterator<[UserNotification]>
    var live: AsyncStream<UserNotification>.AsyncIterator
    var last: Int64

    public mutating func next() async -> UserNotification? {
      if let notification = backlog.next() { return notification }
      while let notification = await live.next() {
        if notification.sequence > last {
          last = notification.sequence
          return notification
        }
      }
      return nil
    }
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(backlog: backlog.makeIterator(), live: live.makeAsyncIterator(), last: after)
  }
}
