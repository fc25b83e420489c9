import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of the notification centre (`binario.scheduling.v1.Notifications`): the
/// signed-in user's inbox, live stream, preferences and devices; admins' outbox; and the
/// internal `Notify` every service sends through.
public struct NotificationsHandler: Binario_Scheduling_V1_Notifications.SimpleServiceProtocol {
  let centre: NotificationCentre

  public init(centre: NotificationCentre) {
    self.centre = centre
  }

  public func getPushSettings(
    request: Binario_Scheduling_V1_GetPushSettingsRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetPushSettingsResponse {
    .with { $0.webPushPublicKey = centre.webPushPublicKey }
  }

  public func listNotifications(
    request: Binario_Scheduling_V1_ListNotificationsRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListNotificationsResponse {
    let page = try centre.inbox(
      userID: try caller().userID,
      pageSize: Int(clamping: request.pageSize),
      pageToken: request.pageToken,
      unreadOnly: request.unreadOnly
    )
    return .with {
      $0.notifications = page.notifications.map { Binario_Scheduling_V1_Notification($0) }
      $0.nextPageToken = page.nextPageToken
      $0.unreadCount = UInt32(clamping: page.unreadCount)
    }
  }

  public func watchNotifications(
    request: Binario_Scheduling_V1_WatchNotificationsRequest,
    response: RPCWriter<Binario_Scheduling_V1_WatchNotificationsResponse>,
    context: ServerContext
  ) async throws {
    let centre = self.centre
    let feed = try centre.watch(userID: try caller().userID, after: request.cursor)
    // gRPC signals an abandoned call through the context's handle, not by cancelling this
    // task: ending the feed then ends the loop. (No task of its own per stream: thousands stay
    // open at once.) However the call ends, its subscription goes with it.
    defer { feed.end() }
    try await withRPCCancellationHandler {
      for await notification in feed {
        try await response.write(
          .with {
            $0.notification = Binario_Scheduling_V1_Notification(notification)
            $0.cursor = notification.cursor
          }
        )
      }
    } onCancelRPC: {
      feed.end()
    }
    if centre.broadcaster.isClosed {
      // Interrupted, not finished: the caller (or the gateway, for it) watches again after the
      // last cursor it had once scheduling is back.
      throw RPCError(code: .unavailable, message: "the scheduling service is restarting; watch again after your last cursor")
    }
  }

  public func markNotificationsRead(
    request: Binario_Scheduling_V1_MarkNotificationsReadRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_MarkNotificationsReadResponse {
    let (marked, unread) = try await centre.markRead(
      userID: try caller().userID,
      ids: request.notificationIds,
      all: request.all
    )
    return .with {
      $0.marked = UInt32(clamping: marked)
      $0.unreadCount = UInt32(clamping: unread)
    }
  }

  public func getNotificationPreferences(
    request: Binario_Scheduling_V1_GetNotificationPreferencesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetNotificationPreferencesResponse {
    let preferences = try centre.preferences(userID: try caller().userID)
    return .with { $0.preferences = Binario_Scheduling_V1_NotificationPreferences(preferences) }
  }

  public func setNotificationPreferences(
    request: Binario_Scheduling_V1_SetNotificationPreferencesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_SetNotificationPreferencesResponse {
    let saved = try await centre.setPreferences(userID: try caller().userID, try request.preferences.domain())
    return .with { $0.preferences = Binario_Scheduling_V1_NotificationPreferences(saved) }
  }

  public func registerPushDevice(
    request: Binario_Scheduling_V1_RegisterPushDeviceRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_RegisterPushDeviceResponse {
    let device = try await centre.registerDevice(
      userID: try caller().userID,
      platform: PushPlatform(request.platform),
      token: request.token,
      name: request.name
    )
    return .with { $0.device = Binario_Scheduling_V1_PushDevice(device) }
  }

  public func listPushDevices(
    request: Binario_Scheduling_V1_ListPushDevicesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListPushDevicesResponse {
    let devices = try centre.devices(userID: try caller().userID)
    return .with { $0.devices = devices.map(Binario_Scheduling_V1_PushDevice.init) }
  }

  public func removePushDevice(
    request: Binario_Scheduling_V1_RemovePushDeviceRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_RemovePushDeviceResponse {
    try await centre.removeDevice(userID: try caller().userID, deviceID: request.deviceID)
    return .init()
  }

  public func listDeliveries(
    request: Binario_Scheduling_V1_ListDeliveriesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListDeliveriesResponse {
    let deliveries = try centre.deliveries(userID: request.userID, limit: Int(clamping: request.limit))
    return .with { $0.deliveries = deliveries.map(Binario_Scheduling_V1_Delivery.init) }
  }

  public func notify(
    request: Binario_Scheduling_V1_NotifyRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_NotifyResponse {
    guard let kind = NotificationKind(request.kind) else {
      throw ServiceError.invalid("kind", "choose a notification kind")
    }
    let outcome = try await centre.notify(
      userIDs: request.userIds,
      content: NotificationContent(
        kind: kind,
        title: TranslatedText(english: request.title, translations: request.titleTranslations),
        body: TranslatedText(english: request.body, translations: request.bodyTranslations),
        data: request.data
      ),
      dedupeKey: request.dedupeKey,
      pushOnly: request.pushOnly
    )
    return .with {
      $0.notified = UInt32(clamping: outcome.notified)
      $0.duplicate = outcome.duplicate
    }
  }
}
