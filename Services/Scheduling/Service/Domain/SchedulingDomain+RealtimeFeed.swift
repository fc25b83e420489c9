import BinarioDomain
import Foundation

/// What the GTFS-realtime feed carries (the handler encodes it, ``RealtimeFeedBuilder``).
public struct RealtimeFeed: Sendable {
  /// The runs with live changes.
  public var runs: [RunLiveState]
  public var generatedAt: Date
  /// The static feed's stop id of a station's platform, when it has one.
  public var platformStopID: @Sendable (_ stationID: String, _ platform: String) -> String?
}

extension SchedulingDomain {
  /// The runs changed from yesterday's service day on, for the GTFS-realtime feed.
  public func realtimeFeed() throws -> RealtimeFeed {
    let now = clock.now()
    let changed = try store.changedRuns(from: zone.serviceTime(at: now).date.adding(days: -1))
    let runs = try store.runsWithChanges(changed).map { RunLiveState(run: $0, changes: $1.map(\.kind)) }
    let platformStops = catalog.withLock { $0.platformStops }
    return RealtimeFeed(runs: runs, generatedAt: now, platformStopID: { platformStops[PlatformKey(stationID: $0, platform: $1)] })
  }
}
