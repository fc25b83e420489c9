import BinarioDomain
import BinarioEvents
import BinarioProto
import Logging

/// Scheduling's timetable events, as ticketing applies them (``TimetableChanges``).
public struct SchedulingEvents: Sendable {
  /// The payload types ticketing follows.
  public static let types = [
    Binario_Scheduling_V1_RunRenamed.protoMessageName,
    Binario_Scheduling_V1_RunEdited.protoMessageName,
    Binario_Scheduling_V1_RunRemoved.protoMessageName,
    Binario_Scheduling_V1_TimetableReplaced.protoMessageName,
  ]

  let changes: TimetableChanges
  let logger: Logger

  public init(changes: TimetableChanges, logger: Logger) {
    self.changes = changes
    self.logger = logger
  }

  public func handle(_ event: ReceivedEvent) async throws -> EventOutcome {
    let tickets: Int
    if event.is(Binario_Scheduling_V1_RunRenamed.self) {
      let renamed = try event.payload(as: Binario_Scheduling_V1_RunRenamed.self)
      let run = RunReference(tripID: renamed.tripID, serviceDate: renamed.serviceDate)
      tickets = try await changes.runRenamed(run, to: renamed.newTripID, position: event.position)
    } else if event.is(Binario_Scheduling_V1_RunEdited.self) {
      let edited = try event.payload(as: Binario_Scheduling_V1_RunEdited.self)
      // A new number or headsign alone changes nothing a ticket keeps.
      guard edited.stopsChanged else { return .ignored }
      tickets = try await changes.runEdited(RunReference(tripID: edited.tripID, serviceDate: edited.serviceDate), position: event.position)
    } else if event.is(Binario_Scheduling_V1_RunRemoved.self) {
      let removed = try event.payload(as: Binario_Scheduling_V1_RunRemoved.self)
      tickets = try await changes.runRemoved(RunReference(tripID: removed.tripID, serviceDate: removed.serviceDate), position: event.position)
    } else if event.is(Binario_Scheduling_V1_TimetableReplaced.self) {
      tickets = try await changes.timetableReplaced(position: event.position)
    } else {
      return .ignored
    }
    if tickets > 0 {
      logger.info("tickets follow a timetable change", metadata: ["event": "\(event.position)", "tickets": "\(tickets)"])
    }
    return .applied
  }
}
