import BinarioDomain
import Foundation

/// What a driver's live stream carries.
public enum DriverEvent: Sendable, Hashable {
  case offer(OfferedJob)
  case offerWithdrawn(offerID: String, reason: String)
  case ride(Ride)
  case taxi(Taxi)
}

/// The live streams of committed changes: each driver's jobs (by taxi), each ride's watchers,
/// and the control room. A subscriber's stream buffers what it has not read yet (drivers and
/// rides: every event, bounded; the control room: only that something changed, coalesced).
public final class DispatchFeeds: Sendable {
  private let drivers = KeyedBroadcast<String, DriverEvent>(capacity: DispatchFeeds.backlog, overflow: .dropOldest)
  private let rides = KeyedBroadcast<String, Ride>(capacity: DispatchFeeds.backlog, overflow: .dropOldest)
  private let monitors = KeyedBroadcast<String, Void>(capacity: 1, overflow: .dropOldest)
  /// The most events a slow driver or ride watcher may have unread; older ones are dropped (the
  /// stream's snapshot on reconnecting has the current state).
  static let backlog = 256

  public init() {}

  /// The events of taxi `code`, until the returned stream is dropped or `end` is called.
  public func driver(_ code: String) -> (events: AsyncStream<DriverEvent>, end: @Sendable () -> Void) {
    let (events, end) = drivers.subscribe([code])
    return (events, end)
  }

  /// Ride `id` after each change.
  public func ride(_ id: String) -> (changes: AsyncStream<Ride>, end: @Sendable () -> Void) {
    let (changes, end) = rides.subscribe([id])
    return (changes, end)
  }

  /// A signal after each change (coalesced: at most one unread).
  public func monitor() -> (signals: AsyncStream<Void>, end: @Sendable () -> Void) {
    let (signals, end) = monitors.subscribe([""])
    return (signals, end)
  }

  /// Hands committed changes to their subscribers.
  func publish(_ changes: [DispatchChange]) {
    for change in changes {
      switch change {
      case .offerMade(let job):
        drivers.publish(.offer(job), to: job.offer.taxiCode)
      case .offerWithdrawn(let offerID, let taxiCode, let reason):
        drivers.publish(.offerWithdrawn(offerID: offerID, reason: reason), to: taxiCode)
      case .rideChanged(let ride):
        rides.publish(ride, to: ride.id)
        if let code = ride.taxiCode { drivers.publish(.ride(ride), to: code) }
      case .taxiChanged(let taxi):
        drivers.publish(.taxi(taxi), to: taxi.code)
      case .taxiMoved, .alertRaised:
        break
      }
    }
    monitors.publish((), to: "")
  }
}
