import BinarioDomain
import BinarioProto
import BinarioServiceKit
import BinarioTransport
import Foundation
import GRPCCore
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// A consumer's side of one producer's event log: a lifecycle service that reads the producer's
/// events after this consumer's cursor and hands each to `handle`, until graceful shutdown.
///
/// `handle` applies an event and moves the cursor in one transaction (``EventOutcome/applied``),
/// or says it has nothing to do (``EventOutcome/ignored``) and the subscription moves the cursor.
/// An event is therefore applied exactly once in effect: a crash before the commit leaves the
/// cursor where it was and the event comes again; after it, the event is never asked for again
/// (and a second delivery's transaction is rolled back by ``EventAlreadyApplied``).
///
/// When the stream fails or `handle` throws, it subscribes again with backoff, from the cursor.
/// Events the producer pruned before this consumer read them are never skipped silently: an
/// error in the log, `binario_events_lost_total`, and a note on `/readyz`.
public struct EventSubscription<Transport: ClientTransport>: Service {
  /// The producing service (`identity`).
  public let producer: String
  let client: Binario_Events_V1_EventLog.Client<Transport>
  let cursors: EventCursorStore
  let types: [String]
  let handle: @Sendable (ReceivedEvent) async throws -> EventOutcome
  let clock: any DomainClock
  let backoff: Backoff
  let logger: Logger
  /// Acknowledge at least this often (in events applied) while the backlog lasts.
  let acknowledgeEvery: Int64
  public let status: EventSubscriptionStatus

  /// - Parameters:
  ///   - types: the payload types `handle` cares for (empty: all); the producer sends only those.
  ///   - handle: applies one event; see ``EventOutcome``.
  public init(
    producer: String,
    client: Binario_Events_V1_EventLog.Client<Transport>,
    cursors: EventCursorStore,
    types: [String],
    clock: any DomainClock = SystemClock(),
    backoff: Backoff = Backoff(initial: .milliseconds(200), maximum: .seconds(10)),
    acknowledgeEvery: Int64 = 500,
    logger: Logger,
    handle: @escaping @Sendable (ReceivedEvent) async throws -> EventOutcome
  ) {
    self.producer = producer
    self.client = client
    self.cursors = cursors
    self.types = types
    self.handle = handle
    self.clock = clock
    self.backoff = backoff
    self.acknowledgeEvery = acknowledgeEvery
    self.logger = logger
    self.status = EventSubscriptionStatus()
  }

  public func run() async throws {
    ServiceMetrics.describe("binario_events_applied_total", help: "Events of the producer this service applied")
    ServiceMetrics.describe("binario_events_lost_total", help: "Events of the producer pruned before this service read them")
    ServiceMetrics.describe("binario_events_delay_seconds", help: "Time from an event's commit at its producer to its application here")
    ServiceMetrics.describe(
      "binario_events_rewound_total",
      help: "Events this service applied that its producer's log no longer holds (the producer went back in time: restored from a backup)"
    )
    let applied = Counter(label: "binario_events_applied_total", dimensions: [("producer", producer)])
    let lost = Counter(label: "binario_events_lost_total", dimensions: [("producer", producer)])
    let delay = Metrics.Timer(label: "binario_events_delay_seconds", dimensions: [("producer", producer)], preferredDisplayUnit: .seconds)
    let rewound = Counter(label: "binario_events_rewound_total", dimensions: [("producer", producer)])
    let meters = Meters(applied: applied, lost: lost, delay: delay, rewound: rewound)
    status.setLost(try await cursors.lost(from: producer))
    try await cancelWhenGracefulShutdown {
      var failures = 0
      var everConnected = false
      while !Task.isCancelled {
        var progressed = false
        do {
          progressed = try await self.follow(meters)
          if Task.isCancelled { return }
          self.logger.warning("\(self.producer)'s event stream ended; subscribing again", metadata: ["producer": "\(self.producer)"])
        } catch {
          if Task.isCancelled { return }
          progressed = self.status.appliedSinceConnect > 0
          self.logger.log(
            level: PeerFailureLog.level(attempt: failures + 1, peerAnsweredBefore: everConnected || self.status.isConnected),
            "cannot follow \(self.producer)'s events; retrying",
            metadata: ["producer": "\(self.producer)", "error": "\(error)"]
          )
        }
        everConnected = everConnected || self.status.isConnected
        self.status.setConnected(false)
        failures = progressed ? 1 : failures + 1
        // Cancelled while waiting (the service is stopping): the loop ends, not an error, or a
        // graceful SIGTERM would end the process "with an error" whenever the producer stopped first.
        try? await Task.sleep(for: self.backoff.delay(afterFailures: failures))
      }
    }
  }

  struct Meters: Sendable {
    let applied: Counter
    let lost: Counter
    let delay: Metrics.Timer
    let rewound: Counter
  }

  /// One subscription, from the stored cursor until the stream ends. Returns whether anything
  /// was applied or acknowledged.
  func follow(_ meters: Meters) async throws -> Bool {
    let stored = try await cursors.sequence(of: producer)
    let request = Binario_Events_V1_WatchEventsRequest.with {
      $0.afterSequence = UInt64(stored)
      $0.types = types
    }
    status.resetAppliedSinceConnect()
    return try await client.watchEvents(request) { response in
      // Acknowledgements go out beside the loop, never awaited in it: while a long backlog
      // arrives the stream's buffer can fill, which pauses reading on the stream's connection,
      // and an acknowledgement's answer on that connection would then wait for the loop to
      // drain the buffer, which waited for the answer, until keepalive closed the connection.
      try await withThrowingTaskGroup(of: Void.self) { acknowledgements in
        var cursor = stored
        var acknowledged = stored
        var progressed = false
        for try await message in response.messages {
          switch message.kind {
          case .event(let event):
            let sequence = Int64(clamping: event.sequence)
            guard sequence > cursor else { continue }
            let received = ReceivedEvent(
              position: EventPosition(producer: producer, sequence: sequence),
              type: event.type,
              subjects: event.subjectIds,
              occurredAt: event.occurredAt.date,
              payload: event.payload
            )
            try await self.apply(received)
            cursor = sequence
            progressed = true
            status.recordApplied()
            meters.applied.increment()
            meters.delay.recordNanoseconds(Int64(max(0, clock.now().timeIntervalSince(received.occurredAt)) * 1e9))
            if cursor - acknowledged >= acknowledgeEvery {
              let through = cursor
              acknowledgements.addTask { _ = try await client.acknowledgeEvents(.with { $0.throughSequence = UInt64(through) }) }
              acknowledged = cursor
            }
          case .caughtUp(let caughtUp):
            status.setConnected(true)
            let head = Int64(clamping: caughtUp.headSequence)
            if head > cursor {
              try await cursors.advance(to: EventPosition(producer: producer, sequence: head), at: clock.now())
              cursor = head
            }
            if cursor > acknowledged {
              let through = cursor
              acknowledgements.addTask { _ = try await client.acknowledgeEvents(.with { $0.throughSequence = UInt64(through) }) }
              acknowledged = cursor
              progressed = true
            }
            status.setCaughtUp(through: cursor)
          case .lost(let gap):
            let last = Int64(clamping: gap.lastSequence)
            guard last > cursor else { continue }
            let count = last - max(cursor, Int64(clamping: gap.firstSequence) - 1)
            try await cursors.recordLost(count, through: EventPosition(producer: producer, sequence: last), at: clock.now())
            self.logger.error(
              "\(producer) pruned \(count) events before this service read them: their effects are missing here",
              metadata: ["producer": "\(producer)", "first": "\(gap.firstSequence)", "last": "\(gap.lastSequence)"]
            )
            meters.lost.increment(by: Int(clamping: count))
            status.addLost(count)
            cursor = last
          case .rewound(let rewound):
            // The stream ends after this; the loop subscribes again at once, after the head.
            let head = Int64(clamping: rewound.headSequence)
            guard head < cursor else { continue }
            try await cursors.rewind(producer, to: head, at: clock.now())
            self.logger.error(
              "\(producer)'s event log ends at \(head), before this service's cursor \(cursor): \(producer) went back in time (restored from a backup?); reading its events again after \(head). What this service applied from events \(head + 1) to \(cursor) stays here, though \(producer) no longer holds them (docs/events.md, After a restore)",
              metadata: ["producer": "\(producer)", "head": "\(head)", "cursor": "\(cursor)"]
            )
            meters.rewound.increment(by: Int(clamping: cursor - head))
            status.addRewound(cursor - head)
            cursor = head
            acknowledged = min(acknowledged, head)
            progressed = true
          case nil:
            continue
          }
        }
        try await acknowledgements.waitForAll()
        return progressed
      }
    }
  }

  /// Hands `event` to the handler and makes sure the cursor is past it afterwards.
  func apply(_ event: ReceivedEvent) async throws {
    let outcome: EventOutcome
    do {
      outcome = try await handle(event)
    } catch is EventAlreadyApplied {
      return
    }
    switch outcome {
    case .ignored:
      try await cursors.advance(to: event.position, at: clock.now())
    case .applied:
      // The handler's transaction moved the cursor. One that did not is a bug: its effect would
      // happen again after a crash. Loud in tests; in production, the cursor moves on.
      if try await cursors.advance(to: event.position, at: clock.now()) {
        logger.critical(
          "the handler of \(event.type) said applied but did not move the cursor in its transaction",
          metadata: ["producer": "\(producer)", "sequence": "\(event.position.sequence)"]
        )
        assertionFailure("the handler of \(event.type) did not move the cursor")
      }
    }
  }
}

/// What a subscription has done, for `/readyz` and tests.
public final class EventSubscriptionStatus: Sendable {
  private struct State {
    var connected = false
    var caughtUpThrough: Int64 = 0
    var applied = 0
    var appliedSinceConnect = 0
    var lost: Int64 = 0
    var rewound: Int64 = 0
    var waiters: [(sequence: Int64, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  public init() {}

  /// Whether the stream is open and has caught up at least once since it opened.
  public var isConnected: Bool { state.withLock { $0.connected } }
  /// Events applied since the process started.
  public var applied: Int { state.withLock { $0.applied } }
  /// Events lost (pruned by the producer before they were read), in all.
  public var lost: Int64 { state.withLock { $0.lost } }
  /// Events applied here that the producer's log no longer holds (it went back in time), since
  /// the process started.
  public var rewound: Int64 { state.withLock { $0.rewound } }
  /// The cursor at the last time the stream drained the backlog (and acknowledged it).
  public var caughtUpThrough: Int64 { state.withLock { $0.caughtUpThrough } }

  /// Returns once the subscription has drained the producer's log through `sequence` and
  /// acknowledged it: what a test waits on instead of sleeping.
  public func waitUntilCaughtUp(through sequence: Int64) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let reached = state.withLock { state -> Bool in
        if state.caughtUpThrough >= sequence { return true }
        state.waiters.append((sequence, continuation))
        return false
      }
      if reached { continuation.resume() }
    }
  }

  var appliedSinceConnect: Int { state.withLock { $0.appliedSinceConnect } }

  func setConnected(_ connected: Bool) { state.withLock { $0.connected = connected } }

  func setCaughtUp(through sequence: Int64) {
    let due = state.withLock { state in
      state.caughtUpThrough = max(state.caughtUpThrough, sequence)
      let due = state.waiters.filter { $0.sequence <= state.caughtUpThrough }
      state.waiters.removeAll { $0.sequence <= state.caughtUpThrough }
      return due
    }
    for waiter in due { waiter.continuation.resume() }
  }

  func recordApplied() {
    state.withLock {
      $0.applied += 1
      $0.appliedSinceConnect += 1
    }
  }

  func resetAppliedSinceConnect() { state.withLock { $0.appliedSinceConnect = 0 } }
  func setLost(_ lost: Int64) { state.withLock { $0.lost = lost } }
  func addRewound(_ count: Int64) { state.withLock { $0.rewound += count } }
  func addLost(_ lost: Int64) { state.withLock { $0.lost += lost } }
}
