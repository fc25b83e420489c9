import BinarioDomain
import BinarioEvents
import BinarioProto
import Logging

/// Identity's events, as dispatch applies them (``DispatchDomain/accountDeleted(userID:position:)``).
public struct IdentityEvents: Sendable {
  /// The payload types dispatch follows. An enabled account needs nothing here: its driver
  /// signs on again, its passenger books again.
  public static let types = [
    Binario_Identity_V1_AccountDeleted.protoMessageName,
    Binario_Identity_V1_AccountDisabled.protoMessageName,
    Binario_Identity_V1_AccountProfileChanged.protoMessageName,
  ]

  let domain: DispatchDomain
  let logger: Logger

  public init(domain: DispatchDomain, logger: Logger) {
    self.domain = domain
    self.logger = logger
  }

  public func handle(_ event: ReceivedEvent) async throws -> EventOutcome {
    if event.is(Binario_Identity_V1_AccountDeleted.self) {
      let deleted = try event.payload(as: Binario_Identity_V1_AccountDeleted.self)
      let erased = try await domain.accountDeleted(userID: deleted.userID, position: event.position)
      logger.info(
        "erased a deleted account's bookings and places, de-identified its rides",
        metadata: [
          "event": "\(event.position)", "rides": "\(erased.rides)", "reservations": "\(erased.reservations)", "drove": "\(erased.drove)",
        ]
      )
      return .applied
    }
    if event.is(Binario_Identity_V1_AccountDisabled.self) {
      let disabled = try event.payload(as: Binario_Identity_V1_AccountDisabled.self)
      try await domain.accountDisabled(userID: disabled.userID, position: event.position)
      return .applied
    }
    if event.is(Binario_Identity_V1_AccountProfileChanged.self) {
      let changed = try event.payload(as: Binario_Identity_V1_AccountProfileChanged.self)
      let card =
        changed.defaultPaymentMethodID.isEmpty
        ? nil
        : CardOnFile(
          paymentMethodID: changed.defaultPaymentMethodID,
          providerToken: changed.defaultCardProviderToken,
          last4: changed.defaultCardLast4
        )
      let profile = PassengerProfile(
        userID: changed.userID,
        displayName: changed.displayName,
        verifiedPhone: changed.verifiedPhone,
        card: card
      )
      try await domain.accountProfileChanged(profile, position: event.position)
      return .applied
    }
    return .ignored
  }
}
