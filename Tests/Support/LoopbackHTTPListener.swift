import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// An HTTP/1.1 listener on 127.0.0.1 at a port the system picks, each connection served by a new
/// handler from `makeHandler`, over TLS when given `tls`: what the tests' small HTTP servers share.
enum LoopbackHTTPListener {
  static func bind<Handler: ChannelInboundHandler & Sendable>(
    tls: NIOSSLContext? = nil,
    _ makeHandler: @escaping @Sendable () -> Handler
  ) async throws -> any Channel where Handler.InboundIn == HTTPServerRequestPart {
    try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(makeHandler())
        }
      }
      .bind(host: "127.0.0.1", port: 0)
      .get()
  }
}
