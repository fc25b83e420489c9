import NIOCore
import NIOTLS

/// Closes a connection that has not started properly within `timeout` of its accept: its TLS
/// handshake completed and, after it, at least `requiredBytes` of the application protocol (an
/// HTTP/2 client's 24-byte preface, say). A peer that opens a socket and sends nothing, dribbles
/// its hello, or completes TLS and then stays silent holds nothing for long.
///
/// Goes right after the TLS handler, where the handshake's completion and the decrypted bytes are
/// seen; removes itself once the connection has started.
public final class ConnectionStartTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
  public typealias InboundIn = ByteBuffer
  public typealias InboundOut = ByteBuffer

  private let timeout: TimeAmount
  private let requiredBytes: Int
  private var receivedBytes = 0
  private var handshakeCompleted = false
  private var timer: Scheduled<Void>?

  public init(timeout: Duration, requiredBytes: Int = 0) {
    self.timeout = TimeAmount(timeout)
    self.requiredBytes = requiredBytes
  }

  public func handlerAdded(context: ChannelHandlerContext) {
    let channel = context.channel
    self.timer = context.eventLoop.scheduleTask(in: self.timeout) {
      channel.close(promise: nil)
    }
  }

  public func handlerRemoved(context: ChannelHandlerContext) {
    self.timer?.cancel()
    self.timer = nil
  }

  public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    self.receivedBytes += self.unwrapInboundIn(data).readableBytes
    context.fireChannelRead(data)
    self.removeOnceStarted(context: context)
  }

  public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    context.fireUserInboundEventTriggered(event)
    if case TLSUserEvent.handshakeCompleted = event {
      self.handshakeCompleted = true
      self.removeOnceStarted(context: context)
    }
  }

  private func removeOnceStarted(context: ChannelHandlerContext) {
    guard self.handshakeCompleted, self.receivedBytes >= self.requiredBytes, self.timer != nil else { return }
    self.timer?.cancel()
    self.timer = nil
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }
}
