import NIOCore
import NIOTLS

/// Closes a connection whose TLS handshake has not completed within `timeout` of its accept: a
/// peer that opens a socket and sends nothing (or dribbles its hello) holds nothing for long.
/// Goes after the TLS handler, where the handshake's completion is seen; removes itself then.
public final class TLSHandshakeTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
  public typealias InboundIn = NIOAny

  private let timeout: TimeAmount
  private var timer: Scheduled<Void>?

  public init(timeout: Duration) {
    self.timeout = TimeAmount(timeout)
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

  public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    context.fireUserInboundEventTriggered(event)
    if case TLSUserEvent.handshakeCompleted = event {
      self.timer?.cancel()
      self.timer = nil
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
  }
}
