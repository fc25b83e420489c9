/// The channels a user's notifications go out on beside the inbox (myTaxiService G5 R4). At least
/// one stays on (G5 D2).
public struct DeliveryPreferences: Sendable, Hashable {
  public var push: Bool
  public var email: Bool
  public var sms: Bool

  public init(push: Bool, email: Bool, sms: Bool) {
    self.push = push
    self.email = email
    self.sms = sms
  }

  /// What a user who never chose gets: push and email.
  public static let standard = DeliveryPreferences(push: true, email: true, sms: false)

  public var hasAnyChannel: Bool { self.push || self.email || self.sms }
}

/// A channel a notification goes out on.
public enum DeliveryChannel: String, Sendable, Hashable, CaseIterable {
  case push, email, sms
}
