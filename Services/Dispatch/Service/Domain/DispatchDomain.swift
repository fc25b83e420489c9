import BinarioDomain
import BinarioPayments
import Foundation
import Logging

/// Dispatch's logic: the fleet and its zones' fair queues, passengers' rides from request to
/// payment, drivers' offers and answers, and the control room. Pure Swift: identity, payments,
/// notifications and addresses are reached through the ports in `DispatchPorts.swift`, the
/// database through ``DispatchStore``.
///
/// Every change of state is one store transaction (``commit(_:)``) in which the decision is made
/// on what is committed; what it changed is then published to the live streams
/// (``DispatchFeeds``) and its notifications leave through the outbox.
///
/// The operations live in extensions, one folder per feature, named as the handler's and the
/// store's files: `Fleet/` (taxis, as operators keep them), `Driving/` (a driver's shift, and the
/// ride from the driver's side), `Rides/` (passengers; `+Allocation`: offers, answers, timeouts;
/// `+Checks`: delays, silent taxis, settlement), `Reservations/`, `Places/`, `Monitor/`, `Zones/`.
public final class DispatchDomain: Sendable {
  let store: DispatchStore
  let clock: any DomainClock
  public let zones: ZoneMap
  let accounts: any AccountDirectory
  let payments: any RidePayments
  let geocoder: any Geocoder
  public let settings: DispatchSettings
  let logger: Logger
  /// The live streams: drivers' jobs, passengers' rides, the control room.
  public let feeds = DispatchFeeds()
  /// Told after every commit: the outbox may hold something to send.
  let outboxSignal = WakeUps()
  /// A wake-up after each commit that queued a notification: the outbox job's cue.
  public var outboxWakeUps: AsyncStream<Void> { outboxSignal.stream }

  public init(
    store: DispatchStore,
    clock: any DomainClock,
    zones: ZoneMap,
    accounts: any AccountDirectory,
    payments: any RidePayments,
    geocoder: any Geocoder,
    settings: DispatchSettings = DispatchSettings(),
    logger: Logger = Logger(label: "dispatch")
  ) {
    self.store = store
    self.clock = clock
    self.zones = zones
    self.accounts = accounts
    self.payments = payments
    self.geocoder = geocoder
    self.settings = settings
    self.logger = logger
  }

  /// Runs a change in one transaction, publishes what it changed once committed, and settles the
  /// rides it ended.
  func commit<Result: Sendable>(_ body: @escaping @Sendable (DispatchTransaction) throws -> Result) async throws -> Result {
    let (result, changes, enqueued) = try await store.transaction(body)
    if !changes.isEmpty { feeds.publish(changes) }
    if enqueued { outboxSignal.wake() }
    // A ride that ended is settled at once (a failure is retried by the settlement job).
    for case .rideChanged(let ride) in changes where !ride.state.isOpen && !ride.settled {
      await settle(rideID: ride.id)
    }
    return result
  }

  /// Like ``commit(_:)`` for a change that may refuse after changing something that must stay
  /// (an accept that found its offer expired still expires it): `body` answers the refusal
  /// instead of throwing it, and it is thrown once committed.
  func commitThenRefuse<Result: Sendable>(
    _ body: @escaping @Sendable (DispatchTransaction) throws -> Swift.Result<Result, ServiceError>
  ) async throws -> Result {
    try await commit(body).get()
  }

  static func newID(_ prefix: String) -> String {
    prefix + "_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
  }
}
