/// A text message to a phone (SMS or WhatsApp).
public struct TextMessage: Sendable, Hashable {
  public var channel: ContactChannel
  /// E.164, or a short emergency number such as `112`.
  public var to: String
  public var body: String

  public init(channel: ContactChannel, to: String, body: String) {
    self.channel = channel
    self.to = to
    self.body = body
  }
}

/// The one way identity sends SMS and WhatsApp messages (emergency alerts). A deployment with a
/// messaging provider implements it; the default, ``OutboxTextMessageSender``, records each
/// message in identity's outbox table.
public protocol OutboxMessageSender: Sendable {
  func send(_ message: TextMessage) async throws
}
