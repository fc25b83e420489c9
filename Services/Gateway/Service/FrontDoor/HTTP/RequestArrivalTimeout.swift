import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes an HTTP/JSON connection on which no whole request has arrived within `timeout`: from the
/// accept (the TLS handshake included) to the first request's end, and from each answer's end to
/// the next request's end. A client that dribbles its handshake, headers or body (slowloris), or
/// keeps a connection open doing nothing, holds it for `timeout` at most; a request that has
/// arrived whole is never cut off, however long its answer streams.
final class RequestArrivalTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let timeout: TimeAmount
  private var timer: Scheduled<Void>?
  /// Requests that have arrived whole and not been answered yet (HTTP/1.1 pipelining).
  private var awaitingAnswers = 0

  init(timeout: Duration) {
    self.timeout = TimeAmount(timeout)
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.arm(context: context)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    self.disarm()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .end = self.unwrapInboundIn(data) {
      self.awaitingAnswers += 1
      self.disarm()
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if case .end = self.unwrapOutboundIn(data) {
      self.awaitingAnswers = max(0, self.awaitingAnswers - 1)
      if self.awaitingAnswers == 0 { self.arm(context: context) }
    }
    context.write(data, promise: promise)
  }

  private func arm(context: ChannelHandlerContext) {
    self.disarm()
    let channel = context.channel
    self.timer = context.eventLoop.scheduleTask(in: self.timeout) {
      channel.close(promise: nil)
    }
  }

  private func disarm() {
    self.timer?.cancel()
    self.timer = nil
  }
}
