import BinarioDomain
import Foundation

/// An itinerary event that is a ride on a train of the timetable: the run (trip and service
/// date) and the part ridden. Its times, place and map position come from the timetable, and
/// its live delay is shown on the trip. It may name the ticket for it in its author's wallet
/// (ticketing's opaque id: the link opens it for the ticket's owner only).
public struct ItineraryTrain: Sendable, Hashable {
  public var tripID: String
  public var serviceDate: ServiceDate
  public var fromStationID: String
  public var toStationID: String
  public var ticketID: String

  public init(tripID: String, serviceDate: ServiceDate, fromStationID: String, toStationID: String, ticketID: String = "") {
    self.tripID = tripID
    self.serviceDate = serviceDate
    self.fromStationID = fromStationID
    self.toStationID = toStationID
    self.ticketID = ticketID
  }
}

/// A train event's ride as the timetable plans it and as it runs now.
public struct ItineraryTrainLeg: Sendable, Hashable {
  public var trainNumber: String
  public var line: String
  public var fromStation: Station
  public var toStation: Station
  public var scheduledDeparture: Date
  public var scheduledArrival: Date
  public var expectedDeparture: Date
  public var expectedArrival: Date
  /// At the boarding station.
  public var delayMinutes: Int
  public var platform: String
  public var platformChanged: Bool
  /// The boarding or the alighting stop is cancelled.
  public var cancelled: Bool
}

/// The timetable as itineraries read it (``SchedulingDomain`` answers).
public protocol ItineraryTrains: Sendable {
  /// The ride on `train`'s run from its boarding to its alighting station, live.
  /// `NOT_FOUND` for a run that does not exist; `INVALID_ARGUMENT` naming `field`'s station
  /// the run does not call at, or calls at only in the other order.
  func leg(_ train: ItineraryTrain, field: String) throws -> ItineraryTrainLeg
}
