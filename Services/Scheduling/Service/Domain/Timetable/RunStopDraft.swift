import Foundation

/// What an admin writes for one stop of a run.
public struct RunStopDraft: Sendable, Hashable {
  public var stationID: String
  public var platform: String
  public var arrival: ServiceTime
  public var departure: ServiceTime

  public init(stationID: String, platform: String, arrival: ServiceTime, departure: ServiceTime) {
    self.stationID = stationID
    self.platform = platform
    self.arrival = arrival
    self.departure = departure
  }
}
