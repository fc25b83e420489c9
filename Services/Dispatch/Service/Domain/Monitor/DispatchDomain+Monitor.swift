import Foundation

/// One zone in the control room.
public struct ZoneMonitor: Sendable, Hashable {
  public var zone: Zone
  /// Head first.
  public var queue: [Taxi]
  public var waiting: [Ride]
  public var inProgress: [Ride]
}

/// The control room at one instant.
public struct MonitorSnapshot: Sendable, Hashable {
  public var zones: [ZoneMonitor]
  /// Taxis not queued: unavailable, busy, or outside every zone.
  public var otherTaxis: [Taxi]
  public var takenAt: Date
  /// The alerts not acknowledged, newest first.
  public var alerts: [TaxiAlert] = []
}

extension DispatchDomain {
  /// Per zone: the queue, the rides waiting for a taxi and those under way; and every other taxi.
  public func monitorSnapshot() async throws -> MonitorSnapshot {
    let now = clock.now()
    return try await store.read { tx in
      let taxis = try tx.allTaxis()
      let rides = try tx.openRides()
      let zones = self.zones.zones.map { zone in
        ZoneMonitor(
          zone: zone,
          queue: taxis.filter { $0.isQueued && $0.zoneID == zone.id }.sorted { $0.queuePosition < $1.queuePosition },
          waiting: rides.filter { $0.state == .searching && $0.pickup.zoneID == zone.id },
          inProgress: rides.filter { $0.state.isActive && $0.pickup.zoneID == zone.id }
        )
      }
      return MonitorSnapshot(zones: zones, otherTaxis: taxis.filter { !$0.isQueued }, takenAt: now, alerts: try tx.openAlerts())
    }
  }
}
