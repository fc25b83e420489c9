import Foundation

/// A run as travellers see it: its line, its stops at their stations with scheduled and
/// expected instants, platforms, and what is cancelled.
public struct LiveRun: Sendable {
  public let state: RunLiveState
  public let line: Line
  /// Every station the run calls at, by id.
  public let stations: [String: Station]
  /// The instant the run's service day counts its times from (computed once: a calendar
  /// computation per stop and time would dominate a departures board).
  public let dayStart: Date

  public init(state: RunLiveState, line: Line, stations: [String: Station], zone: ServiceDayZone) {
    self.state = state
    self.line = line
    self.stations = stations
    self.dayStart = zone.start(of: state.run.serviceDate)
  }

  public var tripID: String { self.state.run.tripID }
  public var serviceDate: ServiceDate { self.state.run.serviceDate }

  /// The instant of `time` on the run's service day.
  public func instant(_ time: ServiceTime) -> Date {
    self.dayStart.addingTimeInterval(Double(time.secondsSinceServiceDayStart))
  }

  /// The stop with `sequence`, if the run has it.
  public func stop(_ sequence: Int) -> RunLiveState.Stop? {
    self.state.stops.first { $0.planned.sequence == sequence }
  }

  /// The last stop's station name: where the train goes, when the timetable has no headsign.
  public var headsign: String {
    if !self.state.run.headsign.isEmpty { return self.state.run.headsign }
    return self.state.stops.last.flatMap { self.stations[$0.planned.stationID]?.name } ?? ""
  }
}

/// A run's part of a journey, as travellers see it.
public struct LiveLeg: Sendable {
  public let run: LiveRun
  public let boardSequence: Int
  public let alightSequence: Int

  public var departure: Date? { self.run.stop(self.boardSequence).map { self.run.instant($0.expectedDeparture) } }
  public var arrival: Date? { self.run.stop(self.alightSequence).map { self.run.instant($0.expectedArrival) } }
  /// Whether the train still calls where the traveller boards and alights.
  public var isRunning: Bool {
    self.run.stop(self.boardSequence)?.cancelled == false && self.run.stop(self.alightSequence)?.cancelled == false
  }
}

/// One way from a station to another: a direct run, or two with a change.
public struct Journey: Sendable {
  public let legs: [LiveLeg]

  public var departure: Date { self.legs.first?.departure ?? .distantPast }
  public var arrival: Date { self.legs.last?.arrival ?? .distantFuture }
}

/// One train leaving a station, live.
public struct LiveDeparture: Sendable {
  public let run: LiveRun
  /// The stop at the board's station.
  public let sequence: Int
}
