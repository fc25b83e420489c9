/// A run as the timetable plans it: one trip on one service date, its stops in order.
public struct PlannedRun: Sendable, Hashable {
  public struct Stop: Sendable, Hashable {
    public var sequence: Int
    public var stationID: String
    public var platform: String
    public var arrival: ServiceTime
    public var departure: ServiceTime
  }

  public var tripID: String
  public var serviceDate: ServiceDate
  public var lineID: String
  public var trainNumber: String
  public var stops: [Stop]
  public var headsign: String = ""
}

/// A live change an admin made to a run. A `fromSequence` of 0 means from the first stop (a
/// whole-run cancellation, a delay from the start).
public enum RunChangeKind: Sendable, Hashable {
  /// From this stop on the run is `minutes` late (0 clears it): the stop's departure and every
  /// later arrival and departure.
  case delay(fromSequence: Int, minutes: Int)
  case platform(sequence: Int, platform: String)
  /// The run does not call at this stop or any later one.
  case cancellation(fromSequence: Int)
}

/// A run's live state: its planned stops with every change applied in the order made. A later
/// delay replaces earlier ones from its stop on; a later platform change replaces an earlier
/// one at its stop.
public struct RunLiveState: Sendable, Hashable {
  public struct Stop: Sendable, Hashable {
    public var planned: PlannedRun.Stop
    public var expectedArrival: ServiceTime
    public var expectedDeparture: ServiceTime
    public var platform: String
    public var delayMinutes: Int
    public var cancelled: Bool

    public var platformChanged: Bool { self.platform != self.planned.platform }
    /// Whether anything about this stop differs from the plan.
    public var isChanged: Bool { self.delayMinutes != 0 || self.platformChanged || self.cancelled }
  }

  public let run: PlannedRun
  public let stops: [Stop]

  public init(run: PlannedRun, changes: [RunChangeKind]) {
    var delays = Array(repeating: 0, count: run.stops.count)
    var platforms = run.stops.map(\.platform)
    var cancelled = Array(repeating: false, count: run.stops.count)
    for change in changes {
      switch change {
      case .delay(let from, let minutes):
        for (index, stop) in run.stops.enumerated() where stop.sequence >= from { delays[index] = minutes }
      case .platform(let sequence, let platform):
        for (index, stop) in run.stops.enumerated() where stop.sequence == sequence { platforms[index] = platform }
      case .cancellation(let from):
        for (index, stop) in run.stops.enumerated() where stop.sequence >= from { cancelled[index] = true }
      }
    }
    var stops: [Stop] = []
    for (index, stop) in run.stops.enumerated() {
      // A train reaches a stop as late as it left the one before: a delay from this very stop
      // holds it here (arrives on time, leaves late).
      let arrivalDelay = index == 0 ? delays[index] : delays[index - 1]
      stops.append(
        Stop(
          planned: stop,
          expectedArrival: ServiceTime(seconds: stop.arrival.secondsSinceServiceDayStart + arrivalDelay * 60),
          expectedDeparture: ServiceTime(seconds: stop.departure.secondsSinceServiceDayStart + delays[index] * 60),
          platform: platforms[index],
          delayMinutes: delays[index],
          cancelled: cancelled[index]
        )
      )
    }
    self.run = run
    self.stops = stops
  }

  /// Cancelled at every stop.
  public var isCancelled: Bool { !self.stops.isEmpty && self.stops.allSatisfy(\.cancelled) }
  public var isChanged: Bool { self.stops.contains(where: \.isChanged) }
}
