import BinarioEvents
import BinarioProto
import Logging

/// Identity's events, as telemetry applies them (``AccountLifecycle``).
public struct IdentityEvents: Sendable {
  /// The payload types telemetry follows.
  public static let types = [
    Binario_Identity_V1_AccountDeleted.protoMessageName,
    Binario_Identity_V1_AccountDisabled.protoMessageName,
    Binario_Identity_V1_AccountEnabled.protoMessageName,
  ]

  let accounts: AccountLifecycle
  let logger: Logger

  public init(accounts: AccountLifecycle, logger: Logger) {
    self.accounts = accounts
    self.logger = logger
  }

  public func handle(_ event: ReceivedEvent) async throws -> EventOutcome {
    if event.is(Binario_Identity_V1_AccountDeleted.self) {
      let deleted = try event.payload(as: Binario_Identity_V1_AccountDeleted.self)
      let erased = try await accounts.accountDeleted(userID: deleted.userID, position: event.position)
      logger.info(
        "erased a deleted account's boards",
        metadata: [
          "event": "\(event.position)", "devices": "\(erased.devices)", "readings": "\(erased.readings)", "campaigns": "\(erased.campaigns)",
        ]
      )
      return .applied
    }
    if event.is(Binario_Identity_V1_AccountDisabled.self) {
      let disabled = try event.payload(as: Binario_Identity_V1_AccountDisabled.self)
      try await accounts.accountDisabled(userID: disabled.userID, position: event.position)
      return .applied
    }
    if event.is(Binario_Identity_V1_AccountEnabled.self) {
      let enabled = try event.payload(as: Binario_Identity_V1_AccountEnabled.self)
      try await accounts.accountEnabled(userID: enabled.userID, position: event.position)
      return .applied
    }
    return .ignored
  }
}
