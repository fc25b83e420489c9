import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import SwiftProtobuf

/// `binario.events.v1.EventLog` as every producer serves it, to the consumers its ``EventLog``
/// lists (the caller is known by its certificate: `spiffe://binario/<name>`).
public struct EventLogHandler: Binario_Events_V1_EventLog.SimpleServiceProtocol {
  /// Events read from the database per query while catching up.
  static let batchSize = 256

  let log: EventLog
  let peerIdentity: @Sendable (ServerContext) -> String?

  /// - Parameter peerIdentity: How to learn the caller's certificate identity; by default the
  ///   Binario transport's (a test's in-process transport names one itself).
  public init(log: EventLog, peerIdentity: @escaping @Sendable (ServerContext) -> String? = { $0.binarioPeerIdentity?.uri }) {
    self.log = log
    self.peerIdentity = peerIdentity
  }

  /// The backlog after the caller's cursor, then each event as it commits. A commit wakes the
  /// stream (``EventOutbox``), which then reads the database: wake-ups coalesce, the database
  /// is the only source, so nothing is lost or sent twice however the two interleave.
  public func watchEvents(
    request: Binario_Events_V1_WatchEventsRequest,
    response: RPCWriter<Binario_Events_V1_WatchEventsResponse>,
    context: ServerContext
  ) async throws {
    let consumer = try self.consumer(of: context)
    var after = Int64(clamping: request.afterSequence)
    let types = request.types
    // A log that ends before the caller's cursor went back in time (this process was restored
    // from a backup): say so and end, before acknowledging anything the log does not hold. The
    // caller subscribes again after the head, where the next events will be numbered.
    let head = try await log.store.head()
    if after > head {
      try await response.write(.with { $0.rewound = .with { $0.headSequence = UInt64(head) } })
      return
    }
    // The caller asks after what it has applied: that is an acknowledgement too.
    try await log.store.acknowledge(consumer: consumer, through: after, at: log.clock.now())
    // Watch before the first read: a commit in between wakes the loop once more.
    let (wakeUps, wakeUp) = log.outbox.committed.watch()
    defer { wakeUp.finish() }
    // Closed (the process is draining): end at once; the consumer comes back after its cursor.
    if log.outbox.isClosed { return }
    try await withRPCCancellationHandler {
      var iterator = wakeUps.makeAsyncIterator()
      var sentSinceCaughtUp = true
      while true {
        let batch = try await log.store.events(after: after, types: types, limit: Self.batchSize)
        if batch.prunedThrough > after {
          try await response.write(
            .with {
              $0.lost = .with {
                $0.firstSequence = UInt64(after + 1)
                $0.lastSequence = UInt64(batch.prunedThrough)
              }
            }
          )
          after = batch.prunedThrough
          sentSinceCaughtUp = true
          continue
        }
        for event in batch.events {
          try await response.write(.with { $0.event = Binario_Events_V1_Event(event) })
          after = event.sequence
          sentSinceCaughtUp = true
        }
        if batch.events.count == Self.batchSize { continue }
        if sentSinceCaughtUp || batch.head > after {
          try await response.write(.with { $0.caughtUp = .with { $0.headSequence = UInt64(max(batch.head, after)) } })
          sentSinceCaughtUp = false
        }
        after = max(after, batch.head)
        guard await iterator.next() != nil else { return }
      }
    } onCancelRPC: {
      wakeUp.finish()
    }
  }

  public func acknowledgeEvents(
    request: Binario_Events_V1_AcknowledgeEventsRequest,
    context: ServerContext
  ) async throws -> Binario_Events_V1_AcknowledgeEventsResponse {
    let consumer = try self.consumer(of: context)
    try await log.store.acknowledge(consumer: consumer, through: Int64(clamping: request.throughSequence), at: log.clock.now())
    return .init()
  }

  /// The calling service's name, if it is one of the log's consumers.
  func consumer(of context: ServerContext) throws -> String {
    let peer = peerIdentity(context)
    guard let consumer = log.consumers.first(where: { WorkloadIdentity.named($0) == peer }) else {
      throw RPCError(code: .permissionDenied, message: "\(peer ?? "an unidentified peer") is not a consumer of \(log.producer)'s events")
    }
    return consumer
  }
}

extension Binario_Events_V1_Event {
  init(_ event: StoredEvent) {
    self.init()
    self.sequence = UInt64(event.sequence)
    self.type = event.type
    self.subjectIds = event.subjects
    self.occurredAt = Google_Protobuf_Timestamp(date: event.occurredAt)
    self.payload = event.payload
  }
}
