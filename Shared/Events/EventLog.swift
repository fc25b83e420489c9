import BinarioDomain
import Foundation
import GRDB

/// A producer's event log: what its store records into (``outbox``), what its consumers read
/// (``EventLogHandler``) and how long it keeps what they have read (``prune()``).
public struct EventLog: Sendable {
  /// How long an event every consumer has acknowledged is kept (for a consumer restored from a
  /// backup a little older than its last acknowledgement).
  public static let defaultKeepAcknowledged: TimeInterval = 24 * 3600
  /// How long any event is kept, acknowledged or not: a consumer away longer is told what it lost.
  public static let defaultRetention: TimeInterval = 30 * 24 * 3600

  /// The producing service (`identity`).
  public let producer: String
  public let outbox: EventOutbox
  /// The services that read this log (`scheduling`, `ticketing`): the only callers it serves,
  /// and whose acknowledgements pruning waits for.
  public let consumers: [String]
  let store: EventLogStore
  let clock: any DomainClock
  let keepAcknowledged: TimeInterval
  let retention: TimeInterval

  public init(
    producer: String,
    database: DatabasePool,
    outbox: EventOutbox,
    consumers: [String],
    clock: any DomainClock = SystemClock(),
    keepAcknowledged: TimeInterval = Self.defaultKeepAcknowledged,
    retention: TimeInterval = Self.defaultRetention
  ) {
    self.producer = producer
    self.outbox = outbox
    self.consumers = consumers
    self.store = EventLogStore(pool: database)
    self.clock = clock
    self.keepAcknowledged = keepAcknowledged
    self.retention = retention
  }

  /// One pruning pass: deletes what every consumer has acknowledged (kept `keepAcknowledged`
  /// longer) and anything older than `retention`. Returns how many events went.
  @discardableResult
  public func prune() async throws -> Int {
    try await store.prune(consumers: consumers, now: clock.now(), keepAcknowledged: keepAcknowledged, retention: retention)
  }

  /// How far each consumer has acknowledged.
  public func progress() async throws -> [ConsumerProgress] {
    try await store.progress(of: consumers)
  }
}
