import BinarioTransport
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// A client that writes whatever bytes a test wants to a server port, over TLS or not, and
/// lets the test wait for the server to close the connection.
struct RawConnection {
  let channel: any Channel

  /// Connects; with `tls`, completes a TLS handshake offering ALPN `binario/1` first.
  static func connect(port: Int, tls: BinarioTLSConfiguration?) async throws -> RawConnection {
    let handshake = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
    let sslContext = try tls?.makeClientContext(verifyHostname: false)
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          if let sslContext {
            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: sslContext, serverHostname: nil))
            try channel.pipeline.syncOperations.addHandler(HandshakeWatcher(done: handshake))
          } else {
            handshake.succeed()
          }
        }
      }
      .connect(host: "127.0.0.1", port: port)
      .get()
    channel.closeFuture.whenComplete { _ in handshake.fail(ChannelError.ioOnClosedChannel) }
    try await handshake.futureResult.get()
    return RawConnection(channel: channel)
  }

  func write(_ bytes: [UInt8]) async throws {
    try await self.channel.writeAndFlush(ByteBuffer(bytes: bytes))
  }

  /// Returns when the connection is closed (by the server, for these tests).
  func waitUntilClosed() async {
    try? await self.channel.closeFuture.get()
  }

  func close() async {
    try? await self.channel.close()
  }
}

private final class HandshakeWatcher: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer
  let done: EventLoopPromise<Void>

  init(done: EventLoopPromise<Void>) { self.done = done }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case TLSUserEvent.handshakeCompleted = event { self.done.succeed() }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    self.done.fail(error)
    context.close(promise: nil)
  }
}
