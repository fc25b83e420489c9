import BinarioDomain
import Foundation
import GRPCCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// A small pool of connections to one server: connects lazily, spreads calls round-robin,
/// replaces connections the server sends away, and reconnects with exponential backoff and
/// jitter while the server is unreachable.
///
/// While the server is unreachable a call either fails at once with `UNAVAILABLE` (the default)
/// or, when it asked to wait for readiness, waits for the next successful connection.
public final class BinarioConnectionPool: Sendable {
  /// How the pool connects and reconnects.
  public struct Configuration: Sendable {
    /// How many connections calls are spread over.
    public var size: Int
    public var connectTimeout: Duration
    /// The delay before the first reconnection attempt; each failure multiplies it.
    public var initialBackoff: Duration
    public var maximumBackoff: Duration
    public var backoffMultiplier: Double
    /// Each delay is randomized by up to this fraction, either way.
    public var backoffJitter: Double

    public init(
      size: Int = 1,
      connectTimeout: Duration = .seconds(2),
      initialBackoff: Duration = .milliseconds(100),
      maximumBackoff: Duration = .seconds(5),
      backoffMultiplier: Double = 1.6,
      backoffJitter: Double = 0.2
    ) {
      self.size = max(1, size)
      self.connectTimeout = connectTimeout
      self.initialBackoff = initialBackoff
      self.maximumBackoff = maximumBackoff
      self.backoffMultiplier = backoffMultiplier
      self.backoffJitter = backoffJitter
    }

    public static var defaults: Self { Self() }
  }

  private enum Slot {
    case idle
    case connecting
    case ready(BinarioClientConnection)
    /// The last attempt failed; the next one is scheduled.
    case backingOff(lastError: String)

    var isIdle: Bool { if case .idle = self { true } else { false } }
    var isConnecting: Bool { if case .connecting = self { true } else { false } }
    var lastError: String? { if case .backingOff(let error) = self { error } else { nil } }
  }

  private struct Waiter {
    var continuation: CheckedContinuation<BinarioClientConnection, any Error>
    var waitForReady: Bool
  }

  private struct State {
    var slots: [Slot]
    var nextSlot = 0
    var failures = 0
    var waiters: [UInt64: Waiter] = [:]
    var nextWaiterID: UInt64 = 0
    var isShutDown = false
    /// Set by ``BinarioConnectionPool/keepConnected()``.
    var keepsConnected = false
    /// Connections made so far, and who waits for that count to reach theirs (tests).
    var connectionsMade = 0
    var connectionCountWaiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The next ready connection, round-robin; a connection that can take no new calls frees
    /// its slot for a new one.
    mutating func takeReadyConnection() -> BinarioClientConnection? {
      for offset in 0 ..< self.slots.count {
        let index = (self.nextSlot + offset) % self.slots.count
        guard case .ready(let connection) = self.slots[index] else { continue }
        guard connection.isUsable else {
          self.slots[index] = .idle
          continue
        }
        self.nextSlot = (index + 1) % self.slots.count
        return connection
      }
      return nil
    }
  }

  private let host: String
  private let port: Int
  private let serverHostname: String?
  private let tls: NIOSSLContext
  private let connectionConfiguration: BinarioConnectionConfiguration
  private let configuration: Configuration
  private let group: any EventLoopGroup
  private let logger: Logger
  /// The service connected to, as the caller's own clients know it (`scheduling`).
  public let peerName: String?
  private let state: NIOLockedValueBox<State>

  /// - Parameter peerName: The service at `host` (`scheduling`), for a caller that is itself a
  ///   server (a service, the gateway): its `UNAVAILABLE` errors then name the service and
  ///   leave its address and the reason to this pool's log (at warning), since the caller's
  ///   own clients can do nothing with them. `nil`: errors say "cannot reach HOST:PORT: reason".
  public init(
    host: String,
    port: Int,
    serverHostname: String?,
    tls: BinarioTLSConfiguration,
    connection: BinarioConnectionConfiguration = .defaults,
    configuration: Configuration = .defaults,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger = Logger(label: "binario.transport.client"),
    peerName: String? = nil
  ) throws {
    self.peerName = peerName
    self.host = host
    self.port = port
    self.serverHostname = serverHostname
    self.tls = try tls.makeClientContext(verifyHostname: serverHostname != nil)
    self.connectionConfiguration = connection
    self.configuration = configuration
    self.group = group
    self.logger = logger
    self.state = NIOLockedValueBox(State(slots: Array(repeating: .idle, count: configuration.size)))
  }

  public var target: String { "\(self.host):\(self.port)" }

  /// A ready connection. Connects if none is ready; while the server is unreachable, throws
  /// `UNAVAILABLE` at once unless `waitForReady`, in which case it waits for the next successful
  /// connection (until the calling task is cancelled).
  public func connection(waitForReady: Bool = false) async throws -> BinarioClientConnection {
    if let ready = self.state.withLockedValue({ $0.takeReadyConnection() }) { return ready }
    let id = self.state.withLockedValue { state -> UInt64 in
      state.nextWaiterID += 1
      return state.nextWaiterID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        self.connectOrWait(id: id, waiter: Waiter(continuation: continuation, waitForReady: waitForReady))
      }
    } onCancel: {
      let waiter = self.state.withLockedValue { $0.waiters.removeValue(forKey: id) }
      waiter?.continuation.resume(throwing: CancellationError())
    }
  }

  /// A ready connection, waiting at most `wait` for the server while it is unreachable (a peer
  /// restarting): then `UNAVAILABLE`, as ``connection(waitForReady:)`` without waiting.
  public func connection(waitingAtMost wait: Duration) async throws -> BinarioClientConnection {
    try await withThrowingTaskGroup(of: BinarioClientConnection?.self) { group in
      group.addTask { try await self.connection(waitForReady: true) }
      group.addTask {
        try await Task.sleep(for: wait)
        return nil
      }
      defer { group.cancelAll() }
      guard let connection = try await group.next() ?? nil else {
        let lastError = self.state.withLockedValue { $0.slots.lazy.compactMap(\.lastError).first }
        throw self.unreachable(lastError ?? "no connection within \(wait)")
      }
      return connection
    }
  }

  /// Calls waiting for a connection now (tests).
  var waitingCalls: Int { self.state.withLockedValue { $0.waiters.count } }

  /// A connection that is ready now, without connecting or waiting; `nil` if none is.
  public func readyConnection() -> BinarioClientConnection? {
    self.state.withLockedValue { $0.takeReadyConnection() }
  }

  /// Connects every slot now, without waiting for a call, and from then on replaces a connection
  /// as soon as it ends (its server went away or sent it away) instead of at the next call.
  ///
  /// For a service's clients to its peers: the first call finds a connection ready, and a slow
  /// first connection is paid at start rather than by a caller. (Under podman, aardvark-dns
  /// drops a query now and then while containers start, and glibc asks again only after 5 s:
  /// a lazy first connection then failed its 2 s timeout, and the call with it.) A failed
  /// attempt backs off and retries as ever.
  public func keepConnected() {
    let slots = self.state.withLockedValue { state -> [Int] in
      guard !state.isShutDown else { return [] }
      state.keepsConnected = true
      let idle = state.slots.indices.filter { state.slots[$0].isIdle }
      for slot in idle { state.slots[slot] = .connecting }
      return idle
    }
    for slot in slots { self.startConnecting(slot: slot) }
  }

  /// Ends the backoff of slots waiting to reconnect and connects them now: for a caller that
  /// knows the server is back (another pool just reached it).
  public func retryNow() {
    let slots = self.state.withLockedValue { state -> [Int] in
      state.failures = 0
      return state.slots.indices.filter { state.slots[$0].lastError != nil }
    }
    for slot in slots { self.retry(slot: slot) }
  }

  /// Decides, in one critical section with registering `waiter`, whether a connection is
  /// ready, one must be started, an attempt under way will do, or the call fails now. (Deciding
  /// first and registering after would let the attempt finish in between and leave the waiter
  /// waiting for an outcome that was already announced.)
  private func connectOrWait(id: UInt64, waiter: Waiter) {
    enum Next {
      case use(BinarioClientConnection)
      case connect(slot: Int)
      case wait
      case fail(any Error)
    }
    let next = self.state.withLockedValue { state -> Next in
      if state.isShutDown { return .fail(RPCError(code: .unavailable, message: "the client is shutting down")) }
      if Task.isCancelled { return .fail(CancellationError()) }
      if let ready = state.takeReadyConnection() { return .use(ready) }
      // No ready connection: start one in an idle slot (lazy connect), or join an attempt.
      var outcome = Next.wait
      if let idle = state.slots.firstIndex(where: \.isIdle) {
        state.slots[idle] = .connecting
        outcome = .connect(slot: idle)
      } else if !state.slots.contains(where: \.isConnecting) && !waiter.waitForReady {
        let lastError = state.slots.lazy.compactMap(\.lastError).first
        return .fail(self.unreachable(lastError ?? "no connection"))
      }
      state.waiters[id] = waiter
      return outcome
    }
    switch next {
    case .use(let connection): waiter.continuation.resume(returning: connection)
    case .fail(let error): waiter.continuation.resume(throwing: error)
    case .connect(let slot): self.startConnecting(slot: slot)
    case .wait: ()
    }
  }

  private func startConnecting(slot: Int) {
    let pool = self
    Task {
      do {
        let connection = try await BinarioClientConnection.connect(
          host: pool.host,
          port: pool.port,
          serverHostname: pool.serverHostname,
          tls: pool.tls,
          configuration: pool.connectionConfiguration,
          connectTimeout: pool.configuration.connectTimeout,
          group: pool.group,
          logger: pool.logger,
          peerName: pool.peerName,
          onUnusable: { pool.connectionBecameUnusable(slot: slot) }
        )
        pool.connected(slot: slot, connection)
      } catch {
        pool.connectFailed(slot: slot, error)
      }
    }
  }

  private func connected(slot: Int, _ connection: BinarioClientConnection) {
    let (waiters, counted, shutDown) = self.state.withLockedValue { state in
      state.failures = 0
      if state.isShutDown { return ([Waiter](), [CheckedContinuation<Void, Never>](), true) }
      state.slots[slot] = .ready(connection)
      state.connectionsMade += 1
      let made = state.connectionsMade
      let counted = state.connectionCountWaiters.filter { $0.count <= made }.map(\.continuation)
      state.connectionCountWaiters.removeAll { $0.count <= made }
      defer { state.waiters.removeAll() }
      return (Array(state.waiters.values), counted, false)
    }
    if shutDown {
      connection.close()
      return
    }
    for waiter in waiters { waiter.continuation.resume(returning: connection) }
    for waiter in counted { waiter.resume() }
  }

  /// Returns once the pool has made `count` connections in all, without starting any itself:
  /// what a test waits on to see connections made by the pool alone. Returns early when the
  /// waiting task is cancelled (a test's time limit), so a regression fails rather than hangs.
  func untilConnectionsMade(_ count: Int) async {
    let id = self.state.withLockedValue { state in
      defer { state.nextWaiterID += 1 }
      return state.nextWaiterID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let reached = self.state.withLockedValue { state -> Bool in
          if state.connectionsMade >= count || Task.isCancelled { return true }
          state.connectionCountWaiters.append((id, count, continuation))
          return false
        }
        if reached { continuation.resume() }
      }
    } onCancel: {
      let waiting = self.state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
        guard let index = state.connectionCountWaiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.connectionCountWaiters.remove(at: index).continuation
      }
      waiting?.resume()
    }
  }

  private func connectFailed(slot: Int, _ error: any Error) {
    let reason = ConnectFailureReason.describe(error)
    let (waiters, delay, level) = self.state.withLockedValue { state -> ([Waiter], Duration?, Logger.Level) in
      guard !state.isShutDown else { return ([], nil, .debug) }
      state.slots[slot] = .backingOff(lastError: reason)
      state.failures += 1
      let delay = self.backoff(afterFailures: state.failures)
      // Waiters that asked to wait for readiness stay for the next attempt; the others fail now.
      let failing = state.waiters.filter { !$0.value.waitForReady }
      for id in failing.keys { state.waiters.removeValue(forKey: id) }
      let level = PeerFailureLog.level(attempt: state.failures, peerAnsweredBefore: state.connectionsMade > 0)
      return (Array(failing.values), delay, level)
    }
    self.logger.log(
      level: self.peerName == nil ? .debug : level,
      "connection attempt failed",
      metadata: ["peer": "\(self.peerName ?? "")", "target": "\(self.target)", "error": "\(reason)"]
    )
    let failure = self.unreachable(reason)
    for waiter in waiters { waiter.continuation.resume(throwing: failure) }
    if let delay {
      self.group.next().scheduleTask(in: TimeAmount(delay)) {
        self.retry(slot: slot)
      }
    }
  }

  /// The `UNAVAILABLE` a call gets while no connection can be made.
  private func unreachable(_ reason: String) -> RPCError {
    if let peerName = self.peerName {
      return RPCError(code: .unavailable, message: "the \(peerName) service is unavailable; try again shortly")
    }
    return RPCError(code: .unavailable, message: "cannot reach \(self.target): \(reason)")
  }

  private func retry(slot: Int) {
    let start = self.state.withLockedValue { state -> Bool in
      guard !state.isShutDown, case .backingOff = state.slots[slot] else { return false }
      state.slots[slot] = .connecting
      return true
    }
    if start { self.startConnecting(slot: slot) }
  }

  private func connectionBecameUnusable(slot: Int) {
    let reconnect = self.state.withLockedValue { state -> Bool in
      guard case .ready(let connection) = state.slots[slot], !connection.isUsable else { return false }
      guard state.keepsConnected, !state.isShutDown else {
        state.slots[slot] = .idle
        return false
      }
      state.slots[slot] = .connecting
      return true
    }
    if reconnect { self.startConnecting(slot: slot) }
  }

  /// The delay before the next attempt after `failures` consecutive failures.
  func backoff(afterFailures failures: Int) -> Duration {
    Backoff(
      initial: self.configuration.initialBackoff,
      maximum: self.configuration.maximumBackoff,
      multiplier: self.configuration.backoffMultiplier,
      jitter: self.configuration.backoffJitter
    ).delay(afterFailures: failures)
  }

  /// Sends `GoAway` on every connection; open calls finish, new calls fail with `UNAVAILABLE`.
  public func shutDown() {
    let (connections, waiters) = self.state.withLockedValue { state in
      state.isShutDown = true
      let connections = state.slots.compactMap { slot -> BinarioClientConnection? in
        if case .ready(let connection) = slot { return connection } else { return nil }
      }
      state.slots = state.slots.map { _ in .idle }
      defer { state.waiters.removeAll() }
      return (connections, Array(state.waiters.values))
    }
    for connection in connections { connection.close() }
    let error = RPCError(code: .unavailable, message: "the client is shutting down")
    for waiter in waiters { waiter.continuation.resume(throwing: error) }
  }
}
