import BinarioTransport
import GRPCCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The gateway's connections to one upstream service, over mutual TLS with the gateway's
/// certificate: one ``BinarioConnectionPool`` per event loop, so a forwarded call's upstream half
/// runs on the same loop as its client half and no frame hops threads.
///
/// Each loop remembers its last ready connection, so opening a call is synchronous while the
/// upstream is up; only when none is ready does a task ask the pool (which fails fast with
/// `UNAVAILABLE` while the upstream is down, and reconnects with backoff in the background).
/// A call may then be held (``hold``, ``heldCalls``): it waits for the next connection instead.
public final class UpstreamConnections: Sendable {
  public let name: String
  public let address: UpstreamAddress
  /// How calls to this upstream are held while it is unavailable; `nil`: they fail at once.
  let hold: UpstreamHold?
  /// The places for held calls.
  let heldCalls: HeldCalls

  private struct LoopPool: Sendable {
    let pool: BinarioConnectionPool
    /// The last ready connection; read and written on the loop only.
    let cached: NIOLoopBoundBox<BinarioClientConnection?>
  }

  /// Built once, read without locks: one pool per loop of the group.
  private let loopPools: [ObjectIdentifier: LoopPool]
  /// For calls on a loop outside the group (not the case in the gateway; kept for safety).
  private let sharedPool: BinarioConnectionPool

  public init(
    name: String,
    address: UpstreamAddress,
    tls: BinarioTLSConfiguration,
    connection: BinarioConnectionConfiguration,
    pool: BinarioConnectionPool.Configuration,
    hold: UpstreamHold? = .defaults,
    group: any EventLoopGroup,
    metrics: GatewayMetrics? = nil,
    logger: Logger
  ) throws {
    self.name = name
    self.address = address
    self.hold = hold
    self.heldCalls = HeldCalls(bounds: hold ?? .defaults, gauge: metrics?.heldCalls(upstream: name))
    let serverHostname = (try? SocketAddress(ipAddress: address.host, port: 0)) == nil ? address.host : nil
    var loopPools: [ObjectIdentifier: LoopPool] = [:]
    for loop in group.makeIterator() {
      let loopPool = try BinarioConnectionPool(
        host: address.host,
        port: address.port,
        serverHostname: serverHostname,
        tls: tls,
        connection: connection,
        configuration: pool,
        group: loop,
        logger: logger,
        peerName: name
      )
      loopPools[ObjectIdentifier(loop)] = LoopPool(
        pool: loopPool,
        cached: .makeEmptyBox(valueType: BinarioClientConnection.self, eventLoop: loop)
      )
    }
    self.loopPools = loopPools
    self.sharedPool = try BinarioConnectionPool(
      host: address.host,
      port: address.port,
      serverHostname: serverHostname,
      tls: tls,
      connection: connection,
      configuration: pool,
      group: group,
      logger: logger,
      peerName: name
    )
  }

  /// Hands a ready connection to `body` on `loop`: at once when one is ready, otherwise after
  /// asking the pool. A failure carries `UNAVAILABLE` and a message naming the upstream.
  /// Must be called on `loop`.
  ///
  /// - Parameter wait: how long to wait for the upstream while it is unavailable (for a held
  ///   call, which has taken a place in ``heldCalls``); `nil`: fail at once.
  /// - Returns: the task asking the pool, to cancel when the caller stops waiting (`body` is
  ///   then not called); `nil` when `body` has already run.
  @discardableResult
  func withConnection(
    on loop: any EventLoop,
    wait: Duration? = nil,
    _ body: @escaping @Sendable (Result<BinarioClientConnection, UpstreamCallError>) -> Void
  ) -> Task<Void, Never>? {
    let loopPool = self.loopPools[ObjectIdentifier(loop)]
    if let loopPool, let connection = loopPool.cached.value, connection.isUsable {
      body(.success(connection))
      return nil
    }
    let pool = loopPool?.pool ?? self.sharedPool
    let name = self.name
    return Task {
      var result: Result<BinarioClientConnection, UpstreamCallError>
      do {
        if let wait {
          result = .success(try await pool.connection(waitingAtMost: wait))
        } else {
          result = .success(try await pool.connection())
        }
      } catch {
        if Task.isCancelled { return }
        if let sibling = self.readyConnectionOnAnotherLoop(than: pool) {
          // This loop's pool is still backing off from the upstream's outage while another
          // loop's has reached it again: the call crosses loops rather than fail, and this
          // loop's pool reconnects now instead of at the end of its backoff.
          result = .success(sibling)
          pool.retryNow()
        } else {
          // The pool's error names the upstream; its address and the reason are in the log.
          let message = (error as? RPCError)?.message ?? "the \(name) service is unavailable; try again shortly"
          result = .failure(UpstreamCallError(code: WireStatusCode.unavailable, message: message))
        }
      }
      let outcome = result
      loop.execute {
        if let loopPool, case .success(let connection) = outcome, connection.eventLoop === loop {
          loopPool.cached.value = connection
        }
        body(outcome)
      }
    }
  }

  private func readyConnectionOnAnotherLoop(than pool: BinarioConnectionPool) -> BinarioClientConnection? {
    for other in self.loopPools.values where other.pool !== pool {
      if let connection = other.pool.readyConnection(), connection.isUsable { return connection }
    }
    return nil
  }

  /// A ready connection, from any context.
  func connection(on loop: any EventLoop) async throws(UpstreamCallError) -> BinarioClientConnection {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<BinarioClientConnection, UpstreamCallError>, Never>) in
      loop.execute {
        self.withConnection(on: loop) { continuation.resume(returning: $0) }
      }
    }
    return try result.get()
  }

  /// Sends `GoAway` on every connection: open calls finish, new ones fail.
  public func shutDown() {
    for loopPool in self.loopPools.values { loopPool.pool.shutDown() }
    self.sharedPool.shutDown()
  }
}
