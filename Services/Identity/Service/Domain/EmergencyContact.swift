/// Someone an account holder wants alerted in an emergency.
public struct EmergencyContact: Sendable, Hashable {
  public var id: String
  public var name: String
  /// E.164.
  public var phone: String
  public var channel: ContactChannel

  public init(id: String, name: String, phone: String, channel: ContactChannel) {
    self.id = id
    self.name = name
    self.phone = phone
    self.channel = channel
  }
}

/// Changes to an emergency contact: `nil` leaves a field as it is; `.some(nil)` for the channel
/// means the caller sent "unspecified" (refused).
public struct EmergencyContactChanges: Sendable, Hashable {
  public var name: String?
  public var phone: String?
  public var channel: ContactChannel??

  public init(name: String? = nil, phone: String? = nil, channel: ContactChannel?? = nil) {
    self.name = name
    self.phone = phone
    self.channel = channel
  }
}
