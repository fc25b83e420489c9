import BinarioDomain
import Foundation
import Logging

/// Sends committed notifications out on each recipient's channels: push to each of their
/// devices, email and SMS as their preferences say (push only for a driver's taxi updates), then
/// marks them delivered. A background job: ``run()`` drains what is waiting, then waits to be
/// woken by the next commit. After a restart it picks up whatever was committed and not yet
/// marked, so a crash can repeat a delivery but never lose one; the outbox providers record
/// each (notification, channel, address) once.
public final class DeliveryDispatcher: Sendable {
  let store: SchedulingStore
  let directory: any AccountDirectory
  let push: any PushProvider
  let email: any NotificationEmailProvider
  let text: any NotificationTextProvider
  let logger: Logger
  /// A wake-up at each ``wake()``: the delivery job's cue to run a pass now.
  public let wakeUps = WakeUps()

  /// How many notifications one pass takes at a time.
  static let batchSize = 500

  public init(
    store: SchedulingStore,
    directory: any AccountDirectory,
    push: any PushProvider,
    email: any NotificationEmailProvider,
    text: any NotificationTextProvider,
    logger: Logger = Logger(label: "scheduling.deliveries")
  ) {
    self.store = store
    self.directory = directory
    self.push = push
    self.email = email
    self.text = text
    self.logger = logger
  }

  /// Asks for a pass soon (after a commit that made notifications).
  public func wake() {
    self.wakeUps.wake()
  }

  /// One pass: delivers every notification not yet delivered. Returns how many.
  @discardableResult
  public func deliverWaiting() async throws -> Int {
    var total = 0
    while true {
      let batch = try store.undeliveredNotifications(limit: Self.batchSize)
      if batch.isEmpty { return total }
      try await self.deliver(batch)
      try await store.markDelivered(batch.map(\.id))
      total += batch.count
    }
  }

  private func deliver(_ batch: [UserNotification]) async throws {
    let userIDs = Array(Set(batch.map(\.userID)))
    let preferences = try store.preferences(userIDs: userIDs)
    let devices = Dictionary(grouping: try store.devices(userIDs: userIDs), by: \.userID)
    // Every recipient's account: the language they read in, and their address and phone. Pushes
    // alone do not wait for identity: without it they go in the suite's working language.
    let needsContact = batch.contains { notification in
      let chosen = (preferences[notification.userID] ?? .standard).channels(for: notification.content.kind)
      return !notification.pushOnly && (chosen.email || chosen.sms)
    }
    var contacts: [String: PeerAccount] = [:]
    do {
      for account in try await directory.accounts(ids: userIDs) { contacts[account.userID] = account }
    } catch  where !needsContact {
      logger.warning("identity did not answer; pushing in the working language", metadata: ["error": "\(error)"])
    }
    var gone = Set<PushDevice>()
    for var notification in batch {
      notification.language = contacts[notification.userID]?.language ?? .fallback
      let chosen =
        notification.pushOnly
        ? (push: true, email: false, sms: false)
        : (preferences[notification.userID] ?? .standard).channels(for: notification.content.kind)
      if chosen.push {
        for device in devices[notification.userID] ?? [] where !gone.contains(device) {
          if try await push.push(notification, to: device) == .tokenGone {
            gone.insert(device)
            try await store.removeDevice(platform: device.platform, token: device.token)
            logger.info("dropped a push device its provider reports gone", metadata: ["device.id": "\(device.id)"])
          }
        }
      }
      if chosen.email, let address = contacts[notification.userID]?.email, !address.isEmpty {
        try await email.email(notification, to: address)
      }
      if chosen.sms, let phone = contacts[notification.userID]?.verifiedPhone, !phone.isEmpty {
        try await text.text(notification, to: phone)
      }
    }
  }
}
