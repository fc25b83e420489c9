// With BinarioTransportFactory.swift, the only files of ServiceKit that know the Binario transport.

import BinarioTransport
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Runs a frame-layer server, a ``BinarioListener`` and its call acceptor, as a lifecycle
/// `Service`: for processes that serve calls without GRPCCore's call layer (the gateway).
///
/// `run()` binds, logs where it listens, and serves until graceful shutdown or cancellation.
/// On graceful shutdown it calls `onShutdown` (turn health NOT_SERVING, end long watches), then
/// refuses new calls with `UNAVAILABLE` while open ones finish, closing what is still open after
/// the grace period; on cancellation it closes everything at once. `afterClose` runs once every
/// connection is closed.
public final class FrameListenerService: Service, Sendable {
  private let host: String
  private let port: Int
  private let tls: BinarioTLSConfiguration
  private let connection: BinarioConnectionConfiguration
  private let connectionLimiter: ConnectionLimiter
  private let gracePeriod: Duration?
  private let acceptor: any BinarioCallAcceptor
  private let group: any EventLoopGroup
  private let logger: Logger
  private let onShutdown: @Sendable () -> Void
  private let afterClose: @Sendable () -> Void
  private let boundAddress = OnceValue<SocketAddress>()
  /// Listening once bound, draining from graceful shutdown on, closed once every connection is.
  public let state = ListenerState()

  public init(
    host: String,
    port: Int,
    tls: BinarioTLSConfiguration,
    connection: BinarioConnectionConfiguration = .defaults,
    connectionLimiter: ConnectionLimiter = ConnectionLimiter(),
    gracePeriod: Duration?,
    acceptor: any BinarioCallAcceptor,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger,
    onShutdown: @escaping @Sendable () -> Void = {},
    afterClose: @escaping @Sendable () -> Void = {}
  ) {
    self.host = host
    self.port = port
    self.tls = tls
    self.connection = connection
    self.connectionLimiter = connectionLimiter
    self.gracePeriod = gracePeriod
    self.acceptor = acceptor
    self.group = group
    self.logger = logger
    self.onShutdown = onShutdown
    self.afterClose = afterClose
  }

  /// The listener built from the configuration's `host`, `port`, `tls*`, `maxFrameSize`,
  /// `keepalive*` and `shutdownGracePeriod` settings; `connection`, when given, replaces the
  /// connections' limits and timers.
  public convenience init(
    configuration: ServiceConfiguration,
    connection: BinarioConnectionConfiguration? = nil,
    connectionLimiter: ConnectionLimiter = ConnectionLimiter(),
    acceptor: any BinarioCallAcceptor,
    logger: Logger,
    onShutdown: @escaping @Sendable () -> Void = {},
    afterClose: @escaping @Sendable () -> Void = {}
  ) throws {
    self.init(
      host: configuration.host,
      port: configuration.port,
      tls: try BinarioTLSConfiguration(serverSettingsFrom: configuration),
      connection: connection ?? configuration.connection,
      connectionLimiter: connectionLimiter,
      gracePeriod: configuration.shutdownGracePeriodDuration,
      acceptor: acceptor,
      logger: logger,
      onShutdown: onShutdown,
      afterClose: afterClose
    )
  }

  /// Where the listener is bound, once `run()` has bound it. Throws if binding failed.
  public func listeningAddress() async throws -> SocketAddress {
    try await self.boundAddress.value
  }

  public func run() async throws {
    let listener: BinarioListener
    do {
      listener = try await BinarioListener.bind(
        host: self.host,
        port: self.port,
        tls: self.tls,
        configuration: self.connection,
        connectionLimiter: self.connectionLimiter,
        group: self.group,
        logger: self.logger,
        acceptor: self.acceptor
      )
    } catch {
      self.boundAddress.resolve(.failure(error))
      self.state.advance(to: .closed)
      self.afterClose()
      throw error
    }
    self.state.advance(to: .listening)
    if let address = listener.localAddress {
      self.boundAddress.resolve(.success(address))
      self.logger.notice("listening", metadata: ["address": "\(Self.display(address))"])
    }
    let (onShutdown, gracePeriod, logger, state) = (self.onShutdown, self.gracePeriod, self.logger, self.state)
    await withTaskCancellationHandler {
      await withGracefulShutdownHandler {
        await listener.waitUntilClosed()
      } onGracefulShutdown: {
        state.advance(to: .draining)
        logger.info(
          "graceful shutdown: no new calls; open calls may finish",
          metadata: ["grace-period": "\(gracePeriod.map { "\($0)" } ?? "unlimited")"]
        )
        onShutdown()
        listener.beginGracefulShutdown(gracePeriod: gracePeriod)
      }
    } onCancel: {
      listener.close()
    }
    self.state.advance(to: .closed)
    self.afterClose()
    logger.info("listener closed")
  }

  private static func display(_ address: SocketAddress) -> String {
    guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
    return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
  }
}
