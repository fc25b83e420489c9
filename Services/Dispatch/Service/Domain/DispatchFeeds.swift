import Foundation
import Synchronization

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
  private let drivers = Channels<DriverEvent>(buffering: .bufferingNewest(DispatchFeeds.backlog))
  private let rides = Channels<Ride>(buffering: .bufferingNewest(DispatchFeeds.backlog))
  private let monitors = Channels<Void>(buffering: .bufferingNewest(1))
  /// The most events a slow driver or ride watcher may have unread; older ones are dropped (the
  /// stream's snapshot on reconnecting has the current state).
  static let backlog = 256

  public init() {}

  /// The events of taxi `code`, until the returned stream is dropped or `end` is called.
  public func driver(_ code: String) -> (events: AsyncStream<DriverEvent>, end: @Sendable () -> Void) {
    drivers.subscribe(code)
  }

  /// Ride `id` after each change.
  public func ride(_ id: String) -> (changes: AsyncStream<Ride>, end: @Sendable () -> Void) {
    rides.subscribe(id)
  }

  /// A signal after each change (coalesced: at most one unread).
  public func monitor() -> (signals: AsyncStream<Void>, end: @Sendable () -> Void) {
    monitors.subscribe("")
  }

  /// Hands committed changes to their subscribers.
  func publish(_ changes: [DispatchChange]) {
    for change in changes {
      switch change {
      case .offerMade(let job):
        drivers.yield(.offer(job), to: job.offer.taxiCode)
      case .offerWithdrawn(let offerID, let taxiCode, let reason):
        drivers.yield(.offerWithdrawn(offerID: offerID, reason: reason), to: taxiCode)
      case .rideChanged(let ride):
        rides.yield(ride, to: ride.id)
        if let code = ride.taxiCode { drivers.yield(.ride(ride), to: code) }
      case .taxiChanged(let taxi):
        drivers.yield(.taxi(taxi), to: taxi.code)
      }
    }
    monitors.yield((), to: "")
  }
}

/// The open streams of one kind, by key (a taxi's code, a ride's id; the control room's is "").
private final class Channels<Element: Sendable>: Sendable {
  private let open = Mutex<[String: [UUID: AsyncStream<Element>.Continuation]]>([:])
  private let buffering: AsyncStream<Element>.Continuation.BufferingPolicy

  init(buffering: AsyncStream<Element>.Continuation.BufferingPolicy) {
    self.buffering = buffering
  }

  func subscribe(_ key: String) -> (AsyncStream<Element>, @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: buffering)
    let id = UUID()
    open.withLock { $0[key, default: [:]][id] = continuation }
    let end: @Sendable () -> Void = { [weak self] in
      self?.open.withLock { open in
        open[key]?[id] = nil
        if open[key]?.isEmpty == true { open[key] = nil }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in end() }
    return (stream, end)
  }

  func yield(_ element: Element, to key: String) {
    open.withLock { $0[key]?.values.forEach { $0.yield(element) } }
  }
}
