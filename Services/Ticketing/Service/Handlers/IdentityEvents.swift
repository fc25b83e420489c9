import BinarioEvents
import BinarioProto
import Logging

/// Identity's events, as ticketing applies them (``AccountLifecycle``).
public struct IdentityEvents: Sendable {
  /// The payload types ticketing follows.
  public static let types = [
    Binario_Identity_V1_AccountDeleted.protoMessageName,
    Binario_Identity_V1_FriendshipEnded.protoMessageName,
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
        "erased a deleted account's quotes and subscriptions, de-identified its purchases",
        metadata: [
          "event": "\(event.position)", "subscriptions": "\(erased.subscriptions)", "memberships": "\(erased.memberships)",
          "purchases": "\(erased.purchases)", "tickets": "\(erased.tickets)",
        ]
      )
      return .applied
    }
    if event.is(Binario_Identity_V1_FriendshipEnded.self) {
      let ended = try event.payload(as: Binario_Identity_V1_FriendshipEnded.self)
      try await accounts.friendshipEnded(ended.userID, ended.friendID, position: event.position)
      return .applied
    }
    return .ignored
  }
}
