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
  /// When the feed's content last changed (its header's timestamp, HTTP's Last-Modified): the
  /// latest live change or notice, or the start of the current ``SchedulingDomain/vehicleTick``
  /// (vehicle positions are estimated once per tick).
  public var generatedAt: Date
  /// The static feed's stop id of a station's platform, when it has one.
  public var platformStopID: @Sendable (_ stationID: String, _ platform: String) -> String?
}

extension SchedulingDomain {
  /// How long after its scheduled end a run is still looked at for a vehicle position.
  static let latestRunEnd = 3 * 3600
  /// How often the feed's vehicle positions move on: the feed is the same within a tick
  /// unless a change is made, so a consumer's If-Modified-Since means something.
  public static let vehicleTick: TimeInterval = 30

  /// The runs changed from yesterday's service day on, the notices not over, and the trains
  /// under way now, for the GTFS-realtime feed.
  public func realtimeFeed() throws -> RealtimeFeed {
    let instant = clock.now()
    let now = Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / Self.vehicleTick).rounded(.down) * Self.vehicleTick)
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
      notices: try store.notices(endingAfter: instant),
      vehicles: vehicles,
      lineIDs: catalog.lines.keys.sorted(),
      generatedAt: max(now, try store.latestFeedChange(atOrBefore: instant) ?? now),
      platformStopID: { platformStops[PlatformKey(stationID: $0, platform: $1)] }
    )
  }
}
