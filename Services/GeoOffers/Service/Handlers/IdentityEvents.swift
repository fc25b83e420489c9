import BinarioEvents
import BinarioProto
import Logging

/// Identity's events, as geo-offers applies them.
public struct IdentityEvents: Sendable {
  /// The payload types geo-offers follows.
  public static let types = [Binario_Identity_V1_AccountDeleted.protoMessageName]

  let domain: GeoOffersDomain
  let logger: Logger

  public init(domain: GeoOffersDomain, logger: Logger) {
    self.domain = domain
    self.logger = logger
  }

  public func handle(_ event: ReceivedEvent) async throws -> EventOutcome {
    guard event.is(Binario_Identity_V1_AccountDeleted.self) else { return .ignored }
    let deleted = try event.payload(as: Binario_Identity_V1_AccountDeleted.self)
    let erased = try await domain.accountDeleted(userID: deleted.userID, position: event.position)
    logger.info("erased a deleted account's position, offers and welcomes", metadata: ["event": "\(event.position)", "rows": "\(erased)"])
    return .applied
  }
}
