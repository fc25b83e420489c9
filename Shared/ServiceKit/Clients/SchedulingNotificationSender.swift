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
    kind = Binario_Scheduling_V1_NotificationKind(notification.kind)
    title = notification.title
    body = notification.body
    data = notification.data
    dedupeKey = notification.dedupeKey
    pushOnly = notification.pushOnly
  }
}

extension Binario_Scheduling_V1_NotificationKind {
  init(_ kind: PeerNotification.Kind) {
    switch kind {
    case .tripDelay: self = .tripDelay
    case .platformChange: self = .platformChange
    case .cancellation: self = .cancellation
    case .itineraryInvite: self = .itineraryInvite
    case .itineraryUpdate: self = .itineraryUpdate
    case .deal: self = .deal
    case .welcome: self = .welcome
    case .taxiUpdate: self = .taxiUpdate
    case .renewalReminder: self = .renewalReminder
    case .ticket: self = .ticket
    case .general: self = .general
    }
  }
}

extension ServiceRunnerContext {
  /// Scheduling's notification centre at the `schedulingAddress` setting
  /// (``SchedulingAddressOption``), presenting this process's certificate.
  public func notificationSender(timeout: Duration? = nil) throws -> SchedulingNotificationSender {
    SchedulingNotificationSender(client: try schedulingClient(), timeout: timeout)
  }
}
