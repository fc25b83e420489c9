import Foundation

/// One message recorded in the outbox: what a provider would have delivered.
public struct OutboxMessage: Sendable, Hashable {
  public var id: String
  public var channel: OutboxChannel
  /// An email address or a phone number.
  public var recipient: String
  /// Empty for text messages.
  public var subject: String
  public var body: String
  public var createdAt: Date

  public init(id: String, channel: OutboxChannel, recipient: String, subject: String, body: String, createdAt: Date) {
    self.id = id
    self.channel = channel
    self.recipient = recipient
    self.subject = subject
    self.body = body
    self.createdAt = createdAt
  }
}
