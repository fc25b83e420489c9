import BinarioDomain

/// Someone an account holder wants alerted in an emergency.
public struct EmergencyContact: Sendable, Hashable {
  public var id: String
  public var name: String
  /// E.164.
  public var phone: String
  public var channel: ContactChannel
  /// The language alerts to them are written in; `nil`: the sender's.
  public var language: Language?

  public init(id: String, name: String, phone: String, channel: ContactChannel, language: Language? = nil) {
    self.id = id
    self.name = name
    self.phone = phone
    self.channel = channel
    self.language = language
  }
}

/// Whom a signed-in person's emergency alert goes to.
public enum EmergencyRecipients: Sendable, Hashable {
  /// Their contacts, or the emergency number when they have none.
  case contactsOrEmergencyNumber
  case contacts
  case emergencyNumber
  case both
}

/// Changes to an emergency contact: `nil` leaves a field as it is; `.some(nil)` for the channel
/// means the caller sent "unspecified" (refused).
public struct EmergencyContactChanges: Sendable, Hashable {
  public var name: String?
  public var phone: String?
  public var channel: ContactChannel??
  /// `""`: the sender's language.
  public var language: String?

  public init(name: String? = nil, phone: String? = nil, channel: ContactChannel?? = nil, language: String? = nil) {
    self.name = name
    self.phone = phone
    self.channel = channel
    self.language = language
  }
}
