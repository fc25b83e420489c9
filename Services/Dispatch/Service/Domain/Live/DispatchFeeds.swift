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
  private struct Subscribers {
    var drivers: [String: [UUID: AsyncStream<DriverEvent>.Continuation]] = [:]
    var rides: [String: [UUID: AsyncStream<Ride>.Continuation]] = [:]
    var monitors: [UUID: AsyncStream<Void>.Continuation] = [:]
  }

  private let subscribers = Mutex(Subscribers())
  /// The most events a slow driver or ride watcher may have unread; older ones are dropped (the
  /// stream's snapshot on reconnecting has the current state).
  static let backlog = 256

  public init() {}

  /// The events of taxi `code`, until the returned stream is dropped or ``end`` is called.
  public func driver(_ code: String) -> (events: AsyncStream<DriverEvent>, end: @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream<DriverEvent>.makeStream(bufferingPolicy: .bufferingNewest(Self.backlog))
    let id = UUID()
    subscribers.withLock { $0.drivers[code, default: [:]][id] = continuation }
    let end: @Sendable () -> Void = { [weak self] in
      self?.subscribers.withLock { subscribers in
        subscribers.drivers[code]?[id] = nil
        if subscribers.drivers[code]?.isEmpty == true { subscribers.drivers[code] = nil }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in end() }
    return (stream, end)
  }

  /// Ride `id` after each change.
  public func ride(_ id: String) -> (changes: AsyncStream<Ride>, end: @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream<Ride>.makeStream(bufferingPolicy: .bufferingNewest(Self.backlog))
    let key = UUID()
    subscribers.withLock { $0.rides[id, default: [:]][key] = continuation }
    let end: @Sendable () -> Void = { [weak self] in
      self?.subscribers.withLock { subscribers in
        subscribers.rides[id]?[key] = nil
        if subscribers.rides[id]?.isEmpty == true { subscribers.rides[id] = nil }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in end() }
    return (stream, end)
  }

  /// A signal after each change (coalesced: at most one unread).
  public func monitor() -> (signals: AsyncStream<Void>, end: @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let key = UUID()
    subscribers.withLock { $0.monitors[key] = continuation }
    let end: @Sendable () -> Void = { [weak self] in
      self?.subscribers.withLock { _ = $0.monitors.removeValue(forKey: key) }
      continuation.finish()
    }
    continuation.onTermination = { _ in end() }
    return (stream, end)
  }

  /// Hands committed changes to their subscribers.
  func publish(_ changes: [DispatchChange]) {
    subscribers.withLock { subscribers in
      for change in changes {
        switch change {
        case .offerMade(let job):
          subscribers.drivers[job.offer.taxiCode]?.values.forEach { $0.yield(.offer(job)) }
        case .offerWithdrawn(let offerID, let taxiCode, let reason):
          subscribers.drivers[taxiCode]?.values.forEach { $0.yield(.offerWithdrawn(offerID: offerID, reason: reason)) }
        case .rideChanged(let ride):
          subscribers.rides[ride.id]?.values.forEach { $0.yield(ride) }
          if let code = ride.taxiCode { subscribers.drivers[code]?.values.forEach { $0.yield(.ride(ride)) } }
        case .taxiChanged(let taxi):
          subscribers.drivers[taxi.code]?.values.forEach { $0.yield(.taxi(taxi)) }
        }
      }
      subscribers.monitors.values.forEach { $0.yield() }
    }
  }
}
