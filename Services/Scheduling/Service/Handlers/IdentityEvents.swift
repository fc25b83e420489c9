import BinarioEvents
import BinarioProto
import Logging

/// Identity's events, as scheduling applies them (``AccountLifecycle``).
public struct IdentityEvents: Sendable {
  /// The payload types scheduling follows.
  public static let types = [
    Binario_Identity_V1_AccountDeleted.protoMessageName,
    Binario_Identity_V1_FriendshipEnded.protoMessageName,
    Binario_Identity_V1_FriendshipStarted.protoMessageName,
    Binario_Identity_V1_FriendRequestDeclined.protoMessageName,
    Binario_Identity_V1_AddressConfirmed.protoMessageName,
  ]

  let accounts: AccountLifecycle
  let itineraries: ItineraryPlanner
  let logger: Logger

  public init(accounts: AccountLifecycle, itineraries: ItineraryPlanner, logger: Logger) {
    self.accounts = accounts
    self.itineraries = itineraries
    self.logger = logger
  }

  public func handle(_ event: ReceivedEvent) async throws -> EventOutcome {
    if event.is(Binario_Identity_V1_AccountDeleted.self) {
      let deleted = try event.payload(as: Binario_Identity_V1_AccountDeleted.self)
      let erased = try await accounts.accountDeleted(userID: deleted.userID, email: deleted.email, position: event.position)
      logger.info(
        "erased a deleted account's itineraries, inbox and devices",
        metadata: [
          "event": "\(event.position)", "itineraries": "\(erased.itineraries)", "notifications": "\(erased.notifications)",
          "push_devices": "\(erased.pushDevices)",
        ]
      )
      return .applied
    }
    if event.is(Binario_Identity_V1_FriendshipEnded.self) {
      let ended = try event.payload(as: Binario_Identity_V1_FriendshipEnded.self)
      try await accounts.friendshipEnded(ended.userID, ended.friendID, position: event.position)
      return .applied
    }
    if event.is(Binario_Identity_V1_FriendshipStarted.self) {
      let started = try event.payload(as: Binario_Identity_V1_FriendshipStarted.self)
      try await itineraries.friendshipStarted(started.userID, started.friendID, position: event.position)
      return .applied
    }
    if event.is(Binario_Identity_V1_FriendRequestDeclined.self) {
      let declined = try event.payload(as: Binario_Identity_V1_FriendRequestDeclined.self)
      try await itineraries.friendRequestDeclined(from: declined.fromUserID, to: declined.toUserID, position: event.position)
      return .applied
    }
    if event.is(Binario_Identity_V1_AddressConfirmed.self) {
      let confirmed = try event.payload(as: Binario_Identity_V1_AddressConfirmed.self)
      try await itineraries.addressConfirmed(userID: confirmed.userID, email: confirmed.email, position: event.position)
      return .applied
    }
    return .ignored
  }
}
