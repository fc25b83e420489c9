import BinarioDomain
import BinarioProto
import BinarioServiceKit
import GRDB
import Metrics

extension ServiceRunnerContext {
  /// Serves `log` to its consumers (return the handler with the service's own), prunes it every
  /// hour (``EventLog/prune()``), ends its streams at graceful shutdown, and every 15 seconds
  /// tells how many events each consumer has not acknowledged yet
  /// (`binario_events_consumer_behind{consumer}`, which `deploy/monitoring`'s alerts watch).
  public func addEventLog(_ log: EventLog) -> EventLogHandler {
    onGracefulShutdown { log.outbox.close() }
    addJob(
      PeriodicJob("event-log-pruning", every: .seconds(3600), logger: logger) {
        try await log.prune()
        return nil
      }
    )
    ServiceMetrics.describe("binario_events_consumer_behind", help: "Events each consumer has not acknowledged yet")
    let behind = Dictionary(
      uniqueKeysWithValues: log.consumers.map { ($0, Gauge(label: "binario_events_consumer_behind", dimensions: [("consumer", $0)])) }
    )
    addJob(
      PeriodicJob("event-log-progress", every: .seconds(15), logger: logger) {
        for progress in try await log.progress() { behind[progress.consumer]?.record(progress.behind) }
        return nil
      }
    )
    return EventLogHandler(log: log)
  }

  /// Follows `Peer`'s events into `database` (which has ``EventSchema/createCursors(_:)``): a
  /// lifecycle service beside the server (``EventSubscription``), reading the events of `types`
  /// and handing each to `handle`. Lost events show on `/readyz` as a note.
  @discardableResult
  public func subscribe<Peer: PeerService>(
    to peer: Peer.Type,
    database: DatabasePool,
    types: [String],
    clock: any DomainClock = SystemClock(),
    handle: @escaping @Sendable (ReceivedEvent) async throws -> EventOutcome
  ) throws -> EventSubscriptionStatus {
    let subscription = EventSubscription(
      producer: Peer.name,
      client: Binario_Events_V1_EventLog.Client(wrapping: try peerClient(peer)),
      cursors: EventCursorStore(pool: database),
      types: types,
      clock: clock,
      logger: logger,
      handle: handle
    )
    addService(subscription, name: "\(Peer.name)-events")
    let status = subscription.status
    readiness.addNote("\(Peer.name)-events") {
      let (lost, rewound) = (status.lost, status.rewound)
      var notes: [String] = []
      if lost > 0 { notes.append("\(lost) events from \(Peer.name) were pruned before this service read them; see the log") }
      if rewound > 0 {
        notes.append("\(Peer.name)'s event log went back in time: \(rewound) events applied here are not in it any more; see the log")
      }
      return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
    return status
  }
}
