import BinarioDomain
import Synchronization

/// The notification centre, for a domain's tests: every notification sent, in order.
public final class RecordingNotificationSender: NotificationSender {
  public let sent = Mutex<[PeerNotification]>([])

  public init() {}

  public func send(_ notification: PeerNotification) async throws {
    sent.withLock { $0.append(notification) }
  }

  /// What the centre delivers: the first of each dedupe key, in order.
  public var delivered: [PeerNotification] {
    sent.withLock { sent in
      var keys = Set<String>()
      return sent.filter { keys.insert($0.dedupeKey).inserted }
    }
  }

  /// The notifications sent to `userID`, in order.
  public func messages(to userID: String) -> [PeerNotification] {
    sent.withLock { $0.filter { $0.userIDs.contains(userID) } }
  }
}
