import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOTLS

@testable import BinarioTransport

/// A server connection handler on an embedded channel (time moves only when a test advances it)
/// whose TLS handshake is declared done.
struct EmbeddedServerConnection {
  let loop = EmbeddedEventLoop()
  let channel: EmbeddedChannel
  let acceptor = RecordingAcceptor()
  let flushes = FlushCounter()

  init(configuration: BinarioConnectionConfiguration) throws {
    self.channel = EmbeddedChannel(loop: self.loop)
    let handler = ServerConnectionHandler(
      acceptor: self.acceptor,
      configuration: configuration,
      requirePeerIdentity: false,
      logger: .init(label: "embedded-connection")
    )
    try self.channel.pipeline.syncOperations.addHandlers([self.flushes, handler])
    try self.channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    self.channel.pipeline.fireUserInboundEventTriggered(
      TLSUserEvent.handshakeCompleted(negotiatedProtocol: binarioALPNIdentifier)
    )
  }

  func writtenFrames() throws -> [WireFrame] {
    var frames: [WireFrame] = []
    while let frame = try self.channel.readOutbound(as: WireFrame.self) { frames.append(frame) }
    return frames
  }
}

final class RecordingAcceptor: BinarioCallAcceptor {
  private let accepted = NIOLockedValueBox<[BinarioServerCall]>([])
  var calls: [BinarioServerCall] { self.accepted.withLockedValue { $0 } }

  func acceptCall(_ call: BinarioServerCall) {
    self.accepted.withLockedValue { $0.append(call) }
  }
}

/// Counts the flushes that pass towards the socket.
final class FlushCounter: ChannelOutboundHandler, Sendable {
  typealias OutboundIn = WireFrame
  private let counted = NIOLockedValueBox(0)
  var count: Int { self.counted.withLockedValue { $0 } }

  func flush(context: ChannelHandlerContext) {
    self.counted.withLockedValue { $0 += 1 }
    context.flush()
  }
}
