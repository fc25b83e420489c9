import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOTLS
import Testing

@testable import BinarioTransport

/// What leaves a connection with each flush when calls are answered outside a read burst.
@Suite("Flushes: the answers of one turn of the event loop leave together")
struct FlushCoalescingTests {
  @Test(arguments: [true, false])
  func callsAnsweredInOneTurnShareOneFlush(coalesces: Bool) throws {
    let connection = try ConnectionUnderTest(coalescesFlushes: coalesces)
    for id in [1, 3] as [UInt64] {
      var open = WireFrame()
      open.callID = id
      open.kind = .open(.with { $0.method = "/test.v1.Test/Call"; $0.halfClose = true })
      try connection.channel.writeInbound(open)
    }
    #expect(connection.acceptor.calls.count == 2)

    // Outside the read burst, on the loop, as a handler task would answer.
    for call in connection.acceptor.calls { call.end(WireEnd(code: WireStatusCode.ok)) }
    if coalesces {
      #expect(connection.flushes.count == 0, "nothing leaves before the loop's current tasks are done")
      connection.loop.run()
      #expect(connection.flushes.count == 1)
    } else {
      // Each call's answer goes out in a task of its own, with a flush of its own.
      connection.loop.run()
      #expect(connection.flushes.count == 2)
    }
    let ends = try connection.writtenFrames().filter(\.isEnd).map(\.callID)
    #expect(ends == [1, 3])
  }
}

/// A server connection handler on an embedded channel whose TLS handshake is declared done.
private struct ConnectionUnderTest {
  let loop = EmbeddedEventLoop()
  let channel: EmbeddedChannel
  let acceptor = RecordingAcceptor()
  let flushes = FlushCounter()

  init(coalescesFlushes: Bool) throws {
    self.channel = EmbeddedChannel(loop: self.loop)
    var configuration = BinarioConnectionConfiguration.defaults
    configuration.coalescesFlushes = coalescesFlushes
    let handler = ServerConnectionHandler(
      acceptor: self.acceptor,
      configuration: configuration,
      requirePeerIdentity: false,
      logger: .init(label: "flush-test")
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

private final class RecordingAcceptor: BinarioCallAcceptor {
  private let accepted = NIOLockedValueBox<[BinarioServerCall]>([])
  var calls: [BinarioServerCall] { self.accepted.withLockedValue { $0 } }

  func acceptCall(_ call: BinarioServerCall) {
    self.accepted.withLockedValue { $0.append(call) }
  }
}

/// Counts the flushes that pass towards the socket.
private final class FlushCounter: ChannelOutboundHandler, Sendable {
  typealias OutboundIn = WireFrame
  private let counted = NIOLockedValueBox(0)
  var count: Int { self.counted.withLockedValue { $0 } }

  func flush(context: ChannelHandlerContext) {
    self.counted.withLockedValue { $0 += 1 }
    context.flush()
  }
}
