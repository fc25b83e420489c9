/// A station of the timetable.
public struct Station: Sendable, Hashable {
  public var id: String
  public var code: String
  public var name: String
  public var latitude: Double
  public var longitude: Double
}

/// What an import put in the timetable.
public struct TimetableImportSummary: Sendable, Hashable {
  public var stations: Int
  public var lines: Int
  public var trips: Int
  public var tripStops: Int
  public var serviceDays: Int
  /// The zone the feed's times are in (its `agency_timezone`).
  public var timezone: String
  /// The feed's files that were not used (shapes, fares...), for whoever imported it.
  public var unusedFiles: [String]
}

/// One train leaving a station: the run (trip and the service day it belongs to), where it
/// goes, and when and from which platform it is scheduled to leave.
public struct ScheduledDeparture: Sendable, Hashable {
  public var tripID: String
  public var serviceDate: ServiceDate
  public var trainNumber: String
  public var lineName: String
  public var headsign: String
  public var platform: String
  /// Seconds since the start of `serviceDate` (past 86,400 for a run that began the day before).
  public var departure: ServiceTime

  /// Seconds from the epoch's service day on: orders departures of different service days.
  public var absoluteDeparture: Int {
    self.serviceDate.daysSinceEpoch * 86_400 + self.departure.secondsSinceServiceDayStart
  }
}

/// A line (a GTFS route): `R4`, "Milano Centrale - Bergamo".
public struct Line: Sendable, Hashable {
  public var id: String
  public var shortName: String
  public var longName: String

  public init(id: String, shortName: String, longName: String) {
    self.id = id
    self.shortName = shortName
    self.longName = longName
  }
}
