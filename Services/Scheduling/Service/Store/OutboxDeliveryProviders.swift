import BinarioDomain
import Foundation

/// The default push provider: records each push in the outbox (`delivery`), where tests, the
/// CLI (`binario admin deliveries`) and admins read it. It never reports a token gone.
public struct OutboxPushProvider: PushProvider {
  let store: SchedulingStore
  let clock: any DomainClock

  public init(store: SchedulingStore, clock: any DomainClock) {
    self.store = store
    self.clock = clock
  }

  public func push(_ notification: UserNotification, to device: PushDevice) async throws -> PushOutcome {
    try await store.recordDelivery(
      Delivery(
        id: "\(notification.id):push:\(device.id)",
        channel: .push,
        userID: notification.userID,
        notificationID: notification.id,
        address: "\(device.platform.rawValue):\(device.token)",
        title: notification.title,
        body: notification.body,
        sentAt: clock.now()
      )
    )
    return .sent
  }
}

/// The default email provider: records each email in the outbox.
public struct OutboxEmailProvider: NotificationEmailProvider {
  let store: SchedulingStore
  let clock: any DomainClock

  public init(store: SchedulingStore, clock: any DomainClock) {
    self.store = store
    self.clock = clock
  }

  public func email(_ notification: UserNotification, to address: String) async throws {
    try await store.recordDelivery(
      Delivery(
        id: "\(notification.id):email",
        channel: .email,
        userID: notification.userID,
        notificationID: notification.id,
        address: address,
        title: notification.title,
        body: notification.body,
        sentAt: clock.now()
      )
    )
  }
}

/// The default SMS provider: records each text in the outbox.
public struct OutboxTextProvider: NotificationTextProvider {
  let store: SchedulingStore
  let clock: any DomainClock

  public init(store: SchedulingStore, clock: any DomainClock) {
    self.store = store
    self.clock = clock
  }

  public func text(_ notification: UserNotification, to phone: String) async throws {
    try await store.recordDelivery(
      Delivery(
        id: "\(notification.id):sms",
        channel: .sms,
        userID: notification.userID,
        notificationID: notification.id,
        address: phone,
        title: notification.title,
        body: notification.body,
        sentAt: clock.now()
      )
    )
  }
}
