import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// A listening socket that accepts Binario connections and hands every call opened on them to
/// an acceptor: the frame layer's server.
///
/// ``BinarioServerTransport`` builds on it for GRPCCore services; a proxy can use it directly.
public final class BinarioListener: Sendable {
  private let serverChannel: any Channel
  private let connections: NIOLockedValueBox<ConnectionSet>
  private let allClosed: EventLoopPromise<Void>

  private struct ConnectionSet {
    var channels: [ObjectIdentifier: any Channel] = [:]
    var shuttingDown: Duration?? = nil
    var listenerClosed = false
  }

  /// The address the listener is bound to (with the real port when bound to port 0).
  public var localAddress: SocketAddress? { self.serverChannel.localAddress }

  private init(serverChannel: any Channel, connections: NIOLockedValueBox<ConnectionSet>, allClosed: EventLoopPromise<Void>) {
    self.serverChannel = serverChannel
    self.connections = connections
    self.allClosed = allClosed
  }

  /// Binds `host:port` (port 0 picks a free port) and starts accepting connections.
  ///
  /// - Parameter connectionLimiter: how many connections are kept open, from one client and in
  ///   all; beyond them a new connection is closed at once.
  public static func bind(
    host: String,
    port: Int,
    tls: BinarioTLSConfiguration,
    configuration: BinarioConnectionConfiguration = .defaults,
    connectionLimiter: ConnectionLimiter = ConnectionLimiter(),
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger = Logger(label: "binario.transport.server"),
    acceptor: any BinarioCallAcceptor
  ) async throws -> BinarioListener {
    let sslContext = try tls.makeServerContext()
    let requireIdentity = tls.requireClientCertificate
    let connections = NIOLockedValueBox(ConnectionSet())
    let allClosed = group.next().makePromise(of: Void.self)

    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(connectionLimiter.handler())
        }
      }
      .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
      .childChannelOption(.maxMessagesPerRead, value: 16)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let handler = ServerConnectionHandler(
            acceptor: acceptor,
            configuration: configuration,
            requirePeerIdentity: requireIdentity,
            logger: logger,
            listenerShutdown: {
              connections.withLockedValue { set in set.shuttingDown.map(GracefulShutdownEvent.init) }
            }
          )
          try addFrameHandlers(
            to: channel.pipeline.syncOperations,
            tls: sslContext,
            isServer: true,
            serverHostname: nil,
            connectionHandler: handler,
            configuration: configuration
          )
          let id = ObjectIdentifier(channel)
          let shutdown = connections.withLockedValue { set -> Duration?? in
            set.channels[id] = channel
            return set.shuttingDown
          }
          if let gracePeriod = shutdown {
            // Accepted while shutting down: tell it to go away at once.
            channel.triggerUserOutboundEvent(GracefulShutdownEvent(gracePeriod: gracePeriod), promise: nil)
          }
          channel.closeFuture.whenComplete { _ in
            Self.connectionClosed(id, connections: connections, allClosed: allClosed)
          }
        }
      }

    let serverChannel: any Channel
    do {
      serverChannel = try await bootstrap.bind(host: host, port: port).get()
    } catch {
      // Nothing was accepted, so nothing is left to close.
      allClosed.succeed()
      throw error
    }
    serverChannel.closeFuture.whenComplete { _ in
      let done = connections.withLockedValue { set -> Bool in
        set.listenerClosed = true
        return set.channels.isEmpty
      }
      if done { allClosed.succeed() }
    }
    return BinarioListener(serverChannel: serverChannel, connections: connections, allClosed: allClosed)
  }

  private static func connectionClosed(
    _ id: ObjectIdentifier,
    connections: NIOLockedValueBox<ConnectionSet>,
    allClosed: EventLoopPromise<Void>
  ) {
    let done = connections.withLockedValue { set -> Bool in
      set.channels.removeValue(forKey: id)
      return set.listenerClosed && set.channels.isEmpty
    }
    if done { allClosed.succeed() }
  }

  /// Stops accepting connections and sends `GoAway` on every open one: new calls are refused
  /// with `UNAVAILABLE`, open calls may finish. After `gracePeriod` (if given) connections still
  /// open are closed.
  ///
  /// Every `Open` handled after this returns is refused, even one a connection reads before its
  /// event loop gets to the `GoAway` (NIO runs a socket's reads before tasks queued from other
  /// threads).
  public func beginGracefulShutdown(gracePeriod: Duration? = nil) {
    let channels = self.connections.withLockedValue { set -> [any Channel] in
      set.shuttingDown = .some(gracePeriod)
      return Array(set.channels.values)
    }
    self.serverChannel.close(promise: nil)
    for channel in channels {
      channel.triggerUserOutboundEvent(GracefulShutdownEvent(gracePeriod: gracePeriod), promise: nil)
    }
  }

  /// Closes the listener and every connection at once.
  public func close() {
    let channels = self.connections.withLockedValue { set -> [any Channel] in
      set.shuttingDown = .some(.zero)
      return Array(set.channels.values)
    }
    self.serverChannel.close(promise: nil)
    for channel in channels { channel.close(promise: nil) }
  }

  /// Returns once the listener and all its connections are closed.
  public func waitUntilClosed() async {
    try? await self.allClosed.futureResult.get()
  }
}
