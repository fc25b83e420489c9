import NIOCore
import NIOHTTP1
import Prometheus

/// Answers one HTTP/1.1 request per connection: `GET /metrics` (or `HEAD`) with the registry in
/// Prometheus text format, 405 for other methods there, 404 elsewhere; then closes the connection.
final class MetricsHTTPHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  private let registry: PrometheusCollectorRegistry
  private var head: HTTPRequestHead?
  private var responded = false

  init(registry: PrometheusCollectorRegistry) {
    self.registry = registry
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch self.unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
    case .body:
      break
    case .end:
      guard let head = self.head, !self.responded else { return }
      self.responded = true
      self.respond(to: head, context: context)
    }
  }

  private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
    let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    var headers = HTTPHeaders()
    headers.add(name: "connection", value: "close")
    let status: HTTPResponseStatus
    var body = context.channel.allocator.buffer(capacity: 0)

    if path == "/metrics" {
      switch head.method {
      case .GET, .HEAD:
        status = .ok
        let text = self.registry.emitToBuffer()
        headers.add(name: "content-type", value: Self.contentType)
        headers.add(name: "content-length", value: String(text.count))
        if head.method == .GET { body.writeBytes(text) }
      default:
        status = .methodNotAllowed
        headers.add(name: "allow", value: "GET, HEAD")
        body.writeString("method not allowed\n")
      }
    } else {
      status = .notFound
      body.writeString("not found; metrics are at /metrics\n")
    }
    if status != .ok {
      headers.add(name: "content-type", value: "text/plain; charset=utf-8")
      headers.add(name: "content-length", value: String(body.readableBytes))
    }

    let responseHead = HTTPResponseHead(version: head.version, status: status, headers: headers)
    context.write(self.wrapOutboundOut(.head(responseHead)), promise: nil)
    if body.readableBytes > 0 {
      context.write(self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    }
    context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
      context.close(promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}
