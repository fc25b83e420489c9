import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// One connection from a caller to a Binario server, carrying many concurrent calls.
///
/// This is the frame layer's client: it sends and receives calls as frames and never decodes a
/// message, so a proxy can forward with it. Services use ``BinarioClientTransport`` on top.
public final class BinarioClientConnection: Sendable {
  public let eventLoop: any EventLoop
  public let channel: any Channel
  private let handler: NIOLoopBound<ClientConnectionHandler>
  private let writability: ConnectionWritability
  private let nextCallID = Atomic<UInt64>(1)
  private let usable = Atomic<Bool>(true)
  public let configuration: BinarioConnectionConfiguration

  private init(channel: any Channel, handler: ClientConnectionHandler, configuration: BinarioConnectionConfiguration) {
    self.channel = channel
    self.eventLoop = channel.eventLoop
    self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    self.writability = handler.writability
    self.configuration = configuration
  }

  /// Connects, completes the TLS handshake and returns the ready connection.
  ///
  /// - Parameters:
  ///   - serverHostname: the name the server's certificate must carry (a DNS SAN). `nil` when
  ///     connecting by IP address: then only the chain to the trusted CA is checked.
  ///   - peerName: the service connected to (`scheduling`): calls open when the connection goes
  ///     end with `UNAVAILABLE` naming it, for a relay or a service whose own clients would be
  ///     misled by "the server". `nil` for a direct client.
  ///   - onUnusable: called (on the event loop) once the connection takes no new calls: the
  ///     server sent `GoAway` or the connection closed.
  public static func connect(
    host: String,
    port: Int,
    serverHostname: String?,
    tls: NIOSSLContext,
    configuration: BinarioConnectionConfiguration = .defaults,
    connectTimeout: Duration = .seconds(2),
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger = Logger(label: "binario.transport.client"),
    peerName: String? = nil,
    onUnusable: (@Sendable () -> Void)? = nil
  ) async throws -> BinarioClientConnection {
    let ready = group.next().makePromise(of: BinarioClientConnection.self)
    let bootstrap = ClientBootstrap(group: group)
      .connectTimeout(TimeAmount(connectTimeout))
      .channelOption(.tcpOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let handler = ClientConnectionHandler(
            configuration: configuration,
            requirePeerIdentity: false,
            logger: logger
          )
          handler.peerName = peerName
          let connection = BinarioClientConnection(channel: channel, handler: handler, configuration: configuration)
          handler.onReady = { ready.succeed(connection) }
          handler.onUnusable = {
            connection.usable.store(false, ordering: .relaxed)
            ready.fail(BinarioConnectionError.closedBeforeReady)
            onUnusable?()
          }
          try addFrameHandlers(
            to: channel.pipeline.syncOperations,
            tls: tls,
            isServer: false,
            serverHostname: serverHostname,
            connectionHandler: handler,
            configuration: configuration
          )
        }
      }
    let channel: any Channel
    do {
      channel = try await bootstrap.connect(host: host, port: port).get()
    } catch {
      // Nobody listens (a peer not started yet): the promise is answered all the same, as NIO
      // requires of every promise (a debug build stops the process on one left unanswered).
      ready.fail(error)
      throw error
    }
    channel.closeFuture.whenComplete { _ in ready.fail(BinarioConnectionError.closedBeforeReady) }
    do {
      return try await ready.futureResult.get()
    } catch {
      channel.close(promise: nil)
      throw error
    }
  }

  /// Whether new calls may be opened: connected, and no `GoAway` either way.
  public var isUsable: Bool { self.usable.load(ordering: .relaxed) }

  /// Opens a call. `onEvent` receives the call's events on ``eventLoop``; the last is always
  /// `.end`, including when the connection cannot take the call (`UNAVAILABLE`) or the first
  /// message is too large (`RESOURCE_EXHAUSTED`).
  public func openCall(
    _ request: BinarioCallRequest,
    onEvent: @escaping @Sendable (ClientCallEvent) -> Void
  ) -> BinarioClientCall {
    let id = self.nextCallID.add(1, ordering: .relaxed).oldValue
    let call = BinarioClientCall(
      callID: id,
      connection: self.handler,
      writability: self.writability,
      outboundQueueLimit: self.configuration.outboundQueueLimit,
      maximumPayloadSize: self.configuration.maximumPayloadSize
    )
    if self.eventLoop.inEventLoop {
      self.handler.value.openCall(id: id, request: request, outbound: call.outbound, onEvent: onEvent)
    } else {
      self.eventLoop.execute {
        self.handler.value.openCall(id: id, request: request, outbound: call.outbound, onEvent: onEvent)
      }
    }
    return call
  }

  /// Sends `GoAway` and closes once open calls have ended (or after `gracePeriod`).
  public func close(gracePeriod: Duration? = nil) {
    self.usable.store(false, ordering: .relaxed)
    self.channel.triggerUserOutboundEvent(GracefulShutdownEvent(gracePeriod: gracePeriod), promise: nil)
  }

  /// Closes at once; open calls end with `UNAVAILABLE`.
  public func closeNow() {
    self.usable.store(false, ordering: .relaxed)
    self.channel.close(promise: nil)
  }
}

/// Why a connection could not be used.
public enum BinarioConnectionError: Error, Sendable, CustomStringConvertible {
  case closedBeforeReady

  public var description: String {
    switch self {
    case .closedBeforeReady:
      return "the connection closed before it was ready (TLS handshake refused, or the server went away)"
    }
  }
}

extension BinarioClientConnection {
  /// Returns once the connection can take more bytes (or has closed).
  public func waitUntilWritable() async {
    await self.writability.waitUntilWritable()
  }
}
