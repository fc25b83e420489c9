/// How an emergency contact is reached. Stored as the raw value.
public enum ContactChannel: String, Sendable, Hashable, CaseIterable {
  case sms
  case whatsApp = "whatsapp"
}
