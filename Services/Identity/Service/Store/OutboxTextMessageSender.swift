import BinarioDomain
import Foundation

/// The default ``OutboxMessageSender``: records each SMS or WhatsApp message in identity's
/// outbox table (channel `sms` or `whatsapp`, empty subject) instead of delivering it.
public struct OutboxTextMessageSender: OutboxMessageSender {
  private let store: IdentityStore
  private let clock: any DomainClock

  public init(store: IdentityStore, clock: any DomainClock) {
    self.store = store
    self.clock = clock
  }

  public func send(_ message: TextMessage) async throws {
    try await store.insertOutboxMessage(
      OutboxMessage(
        id: UUID().uuidString.lowercased(),
        channel: message.channel == .sms ? .sms : .whatsApp,
        recipient: message.to,
        subject: "",
        body: message.body,
        createdAt: clock.now()
      )
    )
  }
}
