import BinarioDomain
import BinarioProto
import BinarioTransport
import GRPCCore

/// Scheduling's notifications client over the Binario transport: what another service calls the
/// internal `Notify` with.
public typealias NotificationsServiceClient = Binario_Scheduling_V1_Notifications.Client<BinarioClientTransport>

/// ``BinarioDomain/NotificationSender`` on scheduling's notification centre (`Notify`), presenting
/// this process's certificate. Every service that notifies people sends through this one.
public struct SchedulingNotificationSender: NotificationSender {
  let notifications: NotificationsServiceClient
  let timeout: Duration?

  /// - Parameter timeout: how long one call may take; `nil` for the transport's default.
  public init(client: GRPCClient<BinarioClientTransport>, timeout: Duration? = nil) {
    self.notifications = NotificationsServiceClient(wrapping: client)
    self.timeout = timeout
  }

  public func send(_ notification: PeerNotification) async throws {
    var options = CallOptions.defaults
    if let timeout { options.timeout = timeout }
    _ = try await notifications.notify(Binario_Scheduling_V1_NotifyRequest(notification), options: options)
  }
}

extension Binario_Scheduling_V1_NotifyRequest {
  init(_ notification: PeerNotification) {
    self.init()
    userIds = notification.userIDs
    kind = notification.kind.proto
    title = notification.title.english
    body = notification.body.english
    titleTranslations = notification.title.translations
    bodyTranslations = notification.body.translations
    data = notification.data
    dedupeKey = notification.dedupeKey
    pushOnly = notification.pushOnly
  }
}

extension ServiceRunnerContext {
  /// Scheduling's notification centre at the `schedulingAddress` setting
  /// (``SchedulingAddressOption``), presenting this process's certificate.
  public func notificationSender(timeout: Duration? = nil) throws -> SchedulingNotificationSender {
    SchedulingNotificationSender(client: try schedulingClient(), timeout: timeout)
  }
}
