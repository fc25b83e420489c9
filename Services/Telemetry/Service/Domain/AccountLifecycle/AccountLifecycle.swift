import BinarioDomain
import Foundation

/// What telemetry erased of a deleted account.
public struct AccountErasure: Sendable, Hashable {
  public let devices: Int
  public let readings: Int
  public let campaigns: Int
}

/// An account's life as telemetry follows it from identity's events: deleted → its boards,
/// readings, tokens, campaigns and memberships erased; disabled → its boards' uploads refused;
/// enabled → accepted again. Each change commits with the event's position (exactly once).
public struct AccountLifecycle: Sendable {
  let store: TelemetryStore
  let clock: any DomainClock

  public init(store: TelemetryStore, clock: any DomainClock) {
    self.store = store
    self.clock = clock
  }

  public func accountDeleted(userID: String, position: EventPosition) async throws -> AccountErasure {
    try await store.eraseAccount(userID: userID, position: position, at: clock.now())
  }

  public func accountDisabled(userID: String, position: EventPosition) async throws {
    try await store.setAccountDisabled(userID: userID, true, position: position, at: clock.now())
  }

  public func accountEnabled(userID: String, position: EventPosition) async throws {
    try await store.setAccountDisabled(userID: userID, false, position: position, at: clock.now())
  }
}
