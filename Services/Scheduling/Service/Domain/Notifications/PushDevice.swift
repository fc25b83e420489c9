import Foundation

/// The push services a device can be reached through.
public enum PushPlatform: String, Sendable, Hashable, CaseIterable {
  case fcm
  case apns
  case webPush = "web_push"
}

/// A phone or browser a user registered to receive pushes: the provider's token for it.
public struct PushDevice: Sendable, Hashable {
  public var id: String
  public var userID: String
  public var platform: PushPlatform
  public var token: String
  public var name: String
  public var registeredAt: Date

  public init(id: String, userID: String, platform: PushPlatform, token: String, name: String, registeredAt: Date) {
    self.id = id
    self.userID = userID
    self.platform = platform
    self.token = token
    self.name = name
    self.registeredAt = registeredAt
  }
}

/// One message that went out on a channel, as recorded in the outbox.
public struct Delivery: Sendable, Hashable {
  public var id: String
  public var channel: DeliveryChannel
  public var userID: String
  public var notificationID: String
  /// The device token, email address or phone number.
  public var address: String
  public var title: String
  public var body: String
  public var sentAt: Date

  public init(
    id: String,
    channel: DeliveryChannel,
    userID: String,
    notificationID: String,
    address: String,
    title: String,
    body: String,
    sentAt: Date
  ) {
    self.id = id
    self.channel = channel
    self.userID = userID
    self.notificationID = notificationID
    self.address = address
    self.title = title
    self.body = body
    self.sentAt = sentAt
  }
}
