/// The channel of an outbox message. Stored as the raw value in the outbox table's `channel`.
public enum OutboxChannel: String, Sendable, Hashable, CaseIterable {
  case email
  case sms
  case whatsApp = "whatsapp"
}
