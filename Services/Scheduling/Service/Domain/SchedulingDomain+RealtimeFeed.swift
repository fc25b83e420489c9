import BinarioDomain
import Foundation

/// What the GTFS-realtime feed carries (the handler encodes it, ``RealtimeFeedBuilder``).
public struct RealtimeFeed: Sendable {
  /// The runs with live changes.
  public var runs: [RunLiveState]
  /// The service notices not over yet.
  public var notices: [ServiceNotice]
  /// The trains under way, where the timetable and the live delays put them.
  public var vehicles: [VehicleEstimate]
  /// Every line of the timetable: a network-wide notice informs each.
  public var lineIDs: [String]
  public var generatedAt: Date
  /// The static feed's stop id of a station's platform, when it has one.
  public var platformStopID: @Sendable (_ stationID: String, _ platform: String) -> String?
}

extension SchedulingDomain {
  /// How long after its scheduled end a run is still looked at for a vehicle position.
  static let latestRunEnd = 3 * 3600

  /// The runs changed from yesterday's service day on, the notices not over, and the trains
  /// under way now, for the GTFS-realtime feed.
  public func realtimeFeed() throws -> RealtimeFeed {
    let now = clock.now()
    let (today, time) = zone.serviceTime(at: now)
    let changed = try store.changedRuns(from: today.adding(days: -1))
    let runs = try store.runsWithChanges(changed).map { RunLiveState(run: $0, changes: $1.map(\.kind)) }
    let catalog = catalog.withLock { $0 }
    // Yesterday's runs still going after midnight count their times past 24:00.
    let underWay =
      try store.runsUnderWay(on: today, at: time, lateness: Self.latestRunEnd)
      + store.runsUnderWay(
        on: today.adding(days: -1),
        at: ServiceTime(seconds: time.secondsSinceServiceDayStart + 86_400),
        lateness: Self.latestRunEnd
      )
    let vehicles = try store.runsWithChanges(underWay).compactMap {
      VehicleEstimate(liveRun($0, changes: $1, catalog: catalog), at: now)
    }
    let platformStops = catalog.platformStops
    return RealtimeFeed(
      runs: runs,
      notices: try store.notices(endingAfter: now),
      vehicles: vehicles,
      lineIDs: catalog.lines.keys.sorted(),
      generatedAt: now,
      platformStopID: { platformStops[PlatformKey(stationID: $0, platform: $1)] }
    )
  }
}
