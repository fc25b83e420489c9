import BinarioDomain
import Foundation

/// A station ticket of a user's for a train leaving a station, as ticketing tells it.
public struct DepartingTicket: Sendable, Hashable {
  public var ticketID: String
  public var run: RunReference
  public var trainNumber: String
  public var fromStationID: String
  public var toStationID: String
  public var toStationName: String
  public var scheduledDeparture: Date
  /// Where the traveller's way ends: `toStationID`, or on a journey with changes the last
  /// train's station.
  public var destinationStationID: String

  public init(
    ticketID: String,
    run: RunReference,
    trainNumber: String,
    fromStationID: String,
    toStationID: String,
    toStationName: String,
    scheduledDeparture: Date,
    destinationStationID: String? = nil
  ) {
    self.destinationStationID = destinationStationID ?? toStationID
    self.ticketID = ticketID
    self.run = run
    self.trainNumber = trainNumber
    self.fromStationID = fromStationID
    self.toStationID = toStationID
    self.toStationName = toStationName
    self.scheduledDeparture = scheduledDeparture
  }
}

/// What ticketing is asked (its internal `ListDepartingTickets`).
public protocol TicketLookup: Sendable {
  /// `userID`'s unused station tickets for trains leaving `stationID` (scheduled) in `window`.
  func departingTickets(userID: String, stationID: String, in window: Range<Date>) async throws -> [DepartingTicket]
}

/// A run's live state at one of its stops, as scheduling shows it.
public struct LiveDeparture: Sendable, Hashable {
  public var run: RunReference
  public var stationID: String
  public var scheduledDeparture: Date?
  public var expectedDeparture: Date?
  public var platform: String
  public var delayMinutes: Int
  /// The run is cancelled whole, or does not call here.
  public var cancelled: Bool

  public init(
    run: RunReference,
    stationID: String,
    scheduledDeparture: Date?,
    expectedDeparture: Date?,
    platform: String,
    delayMinutes: Int,
    cancelled: Bool
  ) {
    self.run = run
    self.stationID = stationID
    self.scheduledDeparture = scheduledDeparture
    self.expectedDeparture = expectedDeparture
    self.platform = platform
    self.delayMinutes = delayMinutes
    self.cancelled = cancelled
  }
}

/// What scheduling is asked (its internal `GetRuns`, its public `ListStations`).
public protocol LiveTimetable: Sendable {
  /// The live departure of `run` from `stationID`; `nil` when the timetable has no such run or
  /// stop.
  func departure(of run: RunReference, from stationID: String) async throws -> LiveDeparture?
  /// Every station of the timetable now.
  func stations() async throws -> [GeoStation]
}
