import Foundation
import Logging
import NIOCore
import NIOEmbedded
import NIOTLS

/// The server side of a connection's frame layer, driven by bytes from a fuzzer
/// (`Fuzz/`, target `frames`), without TLS or sockets: exactly the decoder, encoder and
/// ``ServerConnectionHandler`` a listener adds after the TLS handshake.
@_spi(Fuzzing)
public enum FrameLayerFuzzing {
  /// What one fed connection did.
  public struct Outcome: Sendable {
    /// The frames the server wrote back, decoded.
    public var framesWritten: Int
    /// Whether the server closed the connection (a protocol error, or a `GoAway` it sent).
    public var closedByServer: Bool
  }

  /// Feeds `input` to a fresh server connection in `chunkCount` pieces, each call answered by an
  /// echo acceptor, then checks what the server wrote: length-prefixed frames under the limit,
  /// each decodable. Traps (so the fuzzer reports it) if the written bytes are not frames.
  public static func serve(_ input: [UInt8], chunkCount: Int = 2, maximumFrameSize: Int = 64 * 1024) throws -> Outcome {
    let channel = EmbeddedChannel()
    defer { _ = try? channel.finish(acceptAlreadyClosed: true) }
    var logger = Logger(label: "binario.fuzz")
    logger.logLevel = .critical
    let configuration = BinarioConnectionConfiguration(maximumFrameSize: maximumFrameSize)
    let handler = ServerConnectionHandler(
      acceptor: EchoAcceptor(),
      configuration: configuration,
      requirePeerIdentity: false,
      logger: logger
    )
    let pipeline = channel.pipeline.syncOperations
    try pipeline.addHandler(ByteToMessageHandler(FrameDecoder(maximumFrameSize: maximumFrameSize)))
    try pipeline.addHandler(FrameEncoder())
    try pipeline.addHandler(handler)
    try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: binarioALPNIdentifier))

    let pieces = max(1, chunkCount)
    let size = max(1, (input.count + pieces - 1) / pieces)
    var start = 0
    while start < input.count, channel.isActive {
      let end = min(input.count, start + size)
      var buffer = channel.allocator.buffer(capacity: end - start)
      buffer.writeBytes(input[start ..< end])
      do {
        try channel.writeInbound(buffer)
      } catch {
        break  // A protocol error: the connection closes, as it would on a socket.
      }
      channel.embeddedEventLoop.run()
      start = end
    }
    let closedByServer = !channel.isActive

    var written = channel.allocator.buffer(capacity: 0)
    while var part = try channel.readOutbound(as: ByteBuffer.self) {
      written.writeBuffer(&part)
    }
    var frames = 0
    while written.readableBytes > 0 {
      guard let length = written.readInteger(as: UInt32.self), Int(length) <= maximumFrameSize,
        let body = written.readSlice(length: Int(length))
      else {
        preconditionFailure("the server wrote bytes that are not a frame under the limit")
      }
      guard (try? WireFrame(serializedBytes: ByteBufferBytes(body))) != nil else {
        preconditionFailure("the server wrote a frame it cannot decode")
      }
      frames += 1
    }
    return Outcome(framesWritten: frames, closedByServer: closedByServer)
  }

  /// Answers each call: headers, each message echoed, `OK` at half-close.
  private struct EchoAcceptor: BinarioCallAcceptor {
    func acceptCall(_ call: BinarioServerCall) {
      call.sendHeaders([])
      call.onEvent { event in
        switch event {
        case .message(let payload): call.sendMessage(payload)
        case .halfClose: call.end(WireEnd(code: WireStatusCode.ok, message: ""))
        case .cancelled: ()
        }
      }
    }
  }
}
