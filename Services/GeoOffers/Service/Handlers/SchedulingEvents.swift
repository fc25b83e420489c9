import BinarioEvents
import BinarioProto
import Logging

/// Scheduling's timetable events, as geo-offers applies them: its copy of the stations follows
/// each imported timetable.
public struct SchedulingEvents: Sendable {
  /// The payload types geo-offers follows.
  public static let types = [Binario_Scheduling_V1_TimetableReplaced.protoMessageName]

  let domain: GeoOffersDomain
  let logger: Logger

  public init(domain: GeoOffersDomain, logger: Logger) {
    self.domain = domain
    self.logger = logger
  }

  public func handle(_ event: ReceivedEvent) async throws -> EventOutcome {
    guard event.is(Binario_Scheduling_V1_TimetableReplaced.self) else { return .ignored }
    let changed = try await domain.timetableReplaced(position: event.position)
    logger.notice("stations in step with scheduling", metadata: ["event": "\(event.position)", "changed": "\(changed)"])
    return .applied
  }
}
