import NIOCore
import NIOEmbedded
import NIOTLS
import Testing

@testable import BinarioTransport

/// What one peer may hold: connections per client and in all, the time to start a connection
/// and to send a frame, calls open on one connection. (End to end, against the gateway's doors:
/// `HostilePeerTests`.)
@Suite("Limits on what one peer holds")
struct ConnectionLimitTests {
  @Test func connectionsAreCountedPerClientAndInAllAndFreedOnRelease() {
    let limiter = ConnectionLimiter(limits: .init(perClient: 2, total: 3))
    #expect(limiter.admit(client: "10.0.0.1"))
    #expect(limiter.admit(client: "10.0.0.1"))
    #expect(!limiter.admit(client: "10.0.0.1"), "a third from one client")
    #expect(limiter.admit(client: "10.0.0.2"))
    #expect(!limiter.admit(client: "10.0.0.3"), "a fourth in all")
    limiter.release(client: "10.0.0.1")
    #expect(limiter.admit(client: "10.0.0.3"))
    #expect(limiter.counts.open == 3 && limiter.counts.refused == 2)
  }

  @Test func aConnectionThatDoesNotStartInTimeIsClosed() throws {
    let loop = EmbeddedEventLoop()
    let silent = EmbeddedChannel(handler: ConnectionStartTimeoutHandler(timeout: .seconds(5), requiredBytes: 24), loop: loop)
    try silent.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    silent.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: "h2"))
    try silent.writeInbound(ByteBuffer(bytes: [UInt8](repeating: 0x50, count: 23)))
    loop.advanceTime(by: .seconds(4))
    #expect(silent.isActive, "before the timeout")
    loop.advanceTime(by: .seconds(1))
    #expect(!silent.isActive, "handshake done but one byte short of the preface")

    let started = EmbeddedChannel(handler: ConnectionStartTimeoutHandler(timeout: .seconds(5), requiredBytes: 24), loop: loop)
    try started.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    started.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: "h2"))
    try started.writeInbound(ByteBuffer(bytes: [UInt8](repeating: 0x50, count: 24)))
    loop.advanceTime(by: .seconds(60))
    #expect(started.isActive)
    #expect(try started.readInbound(as: ByteBuffer.self)?.readableBytes == 24, "the bytes pass on")
    _ = try started.finish(acceptAlreadyClosed: true)
  }

  @Test func aFrameThatDribblesInIsAProtocolError() throws {
    let loop = EmbeddedEventLoop()
    let channel = EmbeddedChannel(loop: loop)
    let errors = ErrorRecorder()
    try channel.pipeline.syncOperations.addHandler(
      ByteToMessageHandler(FrameDecoder(maximumFrameSize: 1024, completionTimeout: .seconds(30)))
    )
    try channel.pipeline.syncOperations.addHandler(errors)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    try channel.writeInbound(ByteBuffer(bytes: [0, 0, 0, 100, 0x08]))
    loop.advanceTime(by: .seconds(29))
    try channel.writeInbound(ByteBuffer(bytes: [0x01]))
    #expect(errors.errors.isEmpty)
    loop.advanceTime(by: .seconds(1))
    #expect(errors.errors == [.frameTooSlow(.seconds(30))])

    // Whole frames, however far apart, are not.
    let patient = EmbeddedChannel(loop: loop)
    let none = ErrorRecorder()
    try patient.pipeline.syncOperations.addHandler(
      ByteToMessageHandler(FrameDecoder(maximumFrameSize: 1024, completionTimeout: .seconds(30)))
    )
    try patient.pipeline.syncOperations.addHandler(none)
    try patient.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    for _ in 0 ..< 3 {
      try patient.writeInbound(ByteBuffer(bytes: [0, 0, 0, 2, 0x08, 0x01]))
      loop.advanceTime(by: .seconds(60))
    }
    #expect(none.errors.isEmpty)
    #expect(try patient.readInbound(as: WireFrame.self)?.callID == 1)
  }

  @Test func callsPastTheLimitOnOneConnectionAreRefusedAtOnce() throws {
    let connection = try EmbeddedServerConnection(configuration: .init(maximumConcurrentCalls: 2))
    for id in 1 ... 3 {
      var open = WireFrame()
      open.callID = UInt64(id)
      open.kind = .open(.with { $0.method = "/binario.echo.v1.Echo/Get" })
      try connection.channel.writeInbound(open)
    }
    #expect(connection.acceptor.calls.map(\.callID) == [1, 2])
    let refusal = try connection.writtenFrames().first { $0.callID == 3 }
    guard case .end(let end)? = refusal?.kind else {
      Issue.record("call 3 was not ended: \(String(describing: refusal))")
      return
    }
    #expect(end.statusCode == WireStatusCode.resourceExhausted)
    #expect(end.statusMessage.contains("2 calls are open on this connection"))
  }
}

/// Keeps the protocol errors that reach the end of the pipeline.
private final class ErrorRecorder: ChannelInboundHandler {
  typealias InboundIn = WireFrame
  typealias InboundOut = WireFrame
  var errors: [BinarioProtocolError] = []

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    context.fireChannelRead(data)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let error = error as? BinarioProtocolError { self.errors.append(error) }
  }
}
