/// A trip run as scheduling names it: a trip on a service date (`YYYY-MM-DD`). What the
/// services that hold references to runs (ticketing's tickets, geo-offers' welcomes) call them.
public struct RunReference: Sendable, Hashable, Codable, CustomStringConvertible {
  public var tripID: String
  public var serviceDate: String

  public init(tripID: String, serviceDate: String) {
    self.tripID = tripID
    self.serviceDate = serviceDate
  }

  public var description: String { "\(tripID) on \(serviceDate)" }
}
