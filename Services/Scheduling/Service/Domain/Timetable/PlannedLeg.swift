import Foundation

/// A run's part of a journey as the timetable plans it: boarding and alighting stops.
public struct PlannedLeg: Sendable, Hashable {
  public var tripID: String
  public var serviceDate: ServiceDate
  public var boardSequence: Int
  public var alightSequence: Int
}
