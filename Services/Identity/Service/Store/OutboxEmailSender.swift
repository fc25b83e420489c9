import BinarioDomain
import Foundation

/// The default ``EmailSender``: records each email in identity's outbox table (channel `email`)
/// instead of delivering it. Tests and the CLI read it back (`ListOutboxMessages`).
public struct OutboxEmailSender: EmailSender {
  private let store: IdentityStore
  private let clock: any DomainClock

  public init(store: IdentityStore, clock: any DomainClock) {
    self.store = store
    self.clock = clock
  }

  public func send(_ email: Email) async throws {
    try await store.insertOutboxMessage(
      OutboxMessage(
        id: UUID().uuidString.lowercased(),
        channel: .email,
        recipient: email.to,
        subject: email.subject,
        body: email.body,
        createdAt: clock.now()
      )
    )
  }
}
