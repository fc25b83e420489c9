import GRPCCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// GRPCCore's `ClientTransport` over the Binario wire protocol: what a `GRPCClient` calls a
/// Binario server with.
///
/// ```swift
/// let transport = try BinarioClientTransport(host: "identity", port: 7001, tls: .mutual(...))
/// try await withGRPCClient(transport: transport) { client in ... }
/// ```
///
/// It connects lazily, spreads calls over a small pool of connections, fails calls at once
/// with `UNAVAILABLE` while the server is unreachable (unless a call sets `waitForReady`, or
/// the transport has a ``readyWait``), and reconnects with exponential backoff and jitter.
public final class BinarioClientTransport: ClientTransport, Sendable {
  public typealias Bytes = BinarioBytes

  public let pool: BinarioConnectionPool
  /// Whether ``connect()`` connects at once and keeps connections up (``BinarioConnectionPool/keepConnected()``).
  private let connectsEagerly: Bool
  /// What a method's calls get unless their own `CallOptions` say otherwise (a timeout, say):
  /// GRPCCore's client merges it under each call's options.
  private let methodConfig: @Sendable (MethodDescriptor) -> MethodConfig?
  /// How long a call that does not say (`CallOptions.waitForReady` nil) waits for an
  /// unreachable server to come back before it fails: for a service's calls to a peer, which
  /// then live through the peer's restart. `nil`: it fails at once.
  public let readyWait: Duration?
  private let shutdown = NIOLockedValueBox(ShutdownState())

  private struct ShutdownState {
    var requested = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  /// - Parameters:
  ///   - serverHostname: the DNS name the server's certificate must carry; defaults to `host`
  ///     unless `host` is an IP address (then only the CA chain is checked).
  ///   - peerName: the service called (`scheduling`), when the caller is itself a service: its
  ///     `UNAVAILABLE` errors name the service rather than its address
  ///     (``BinarioConnectionPool/peerName``).
  ///   - connectsEagerly: connect when the client starts running and keep connected
  ///     (``BinarioConnectionPool/keepConnected()``), rather than at the first call.
  public init(
    host: String,
    port: Int,
    serverHostname: String? = nil,
    tls: BinarioTLSConfiguration,
    connection: BinarioConnectionConfiguration = .defaults,
    pool: BinarioConnectionPool.Configuration = .defaults,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger = Logger(label: "binario.transport.client"),
    peerName: String? = nil,
    connectsEagerly: Bool = false,
    readyWait: Duration? = nil,
    methodConfig: @escaping @Sendable (MethodDescriptor) -> MethodConfig? = { _ in nil }
  ) throws {
    self.methodConfig = methodConfig
    self.readyWait = readyWait
    self.connectsEagerly = connectsEagerly
    let hostname = serverHostname ?? (Self.isIPAddress(host) ? nil : host)
    self.pool = try BinarioConnectionPool(
      host: host,
      port: port,
      serverHostname: hostname,
      tls: tls,
      connection: connection,
      configuration: pool,
      group: group,
      logger: logger,
      peerName: peerName
    )
  }

  static func isIPAddress(_ host: String) -> Bool {
    (try? SocketAddress(ipAddress: host, port: 0)) != nil
  }

  public var retryThrottle: RetryThrottle? { nil }

  /// Runs until ``beginGracefulShutdown()``, or until the running task is cancelled (then it
  /// shuts down the same way: `withGRPCClient` cancels it when its body throws, and must not
  /// wait forever). Connections are made by the first calls, or at once when the transport
  /// `connectsEagerly`.
  public func connect() async throws {
    if self.connectsEagerly { self.pool.keepConnected() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let alreadyRequested = self.shutdown.withLockedValue { state -> Bool in
          if state.requested { return true }
          state.waiter = continuation
          return false
        }
        if alreadyRequested { continuation.resume() }
      }
    } onCancel: {
      self.beginGracefulShutdown()
    }
  }

  public func beginGracefulShutdown() {
    let waiter = self.shutdown.withLockedValue { state in
      state.requested = true
      defer { state.waiter = nil }
      return state.waiter
    }
    self.pool.shutDown()
    waiter?.resume()
  }

  public func withStream<T: Sendable>(
    descriptor: MethodDescriptor,
    options: CallOptions,
    _ closure: (_ stream: RPCStream<Inbound, Outbound>, _ context: ClientContext) async throws -> T
  ) async throws -> T {
    let connection: BinarioClientConnection
    if options.waitForReady == nil, let readyWait = self.readyWait {
      // Within the call's own timeout, with time left to say why it failed.
      connection = try await self.pool.connection(waitingAtMost: options.timeout.map { min(readyWait, $0 * 0.8) } ?? readyWait)
    } else {
      connection = try await self.pool.connection(waitForReady: options.waitForReady ?? false)
    }
    let adapter = ClientStreamAdapter(connection: connection, descriptor: descriptor)
    let stream = RPCStream(descriptor: descriptor, inbound: adapter.inbound, outbound: adapter.outbound)
    let context = ClientContext(
      descriptor: descriptor,
      remotePeer: connection.channel.remoteAddress?.description ?? self.pool.target,
      localPeer: connection.channel.localAddress?.description ?? "unknown"
    )
    defer { adapter.cancelIfOpen() }
    return try await closure(stream, context)
  }

  public func config(forMethod descriptor: MethodDescriptor) -> MethodConfig? {
    self.methodConfig(descriptor)
  }
}
