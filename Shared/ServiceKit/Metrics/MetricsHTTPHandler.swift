import NIOCore
import NIOHTTP1
import Prometheus

/// Answers one HTTP/1.1 request per connection, then closes it:
/// - `GET /metrics`: the registry in Prometheus text format, its ``ScrapeTimeGauges`` updated first;
/// - `GET /livez`: 200 `ok` (the process answers);
/// - `GET /readyz`: 200 `ready`, or 503 with one line per failing ``Readiness`` check; then a
///   `note:` line per ``Readiness`` note that has something to say;
///
/// `HEAD` as `GET` without the body, 405 for other methods on those paths, 404 elsewhere.
final class MetricsHTTPHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  static let contentType = "text/plain; version=0.0.4; charset=utf-8"
  static let textContentType = "text/plain; charset=utf-8"

  private let registry: PrometheusCollectorRegistry
  private let readiness: Readiness
  private let gauges: ScrapeTimeGauges
  private var head: HTTPRequestHead?
  private var responded = false

  init(registry: PrometheusCollectorRegistry, readiness: Readiness, gauges: ScrapeTimeGauges) {
    self.registry = registry
    self.readiness = readiness
    self.gauges = gauges
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

  private struct Response {
    var status: HTTPResponseStatus
    var contentType = MetricsHTTPHandler.textContentType
    var body: [UInt8]
    var allow: String?
  }

  private func response(for head: HTTPRequestHead) -> Response {
    let path = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    guard ["/metrics", "/livez", "/readyz"].contains(path) else {
      return Response(status: .notFound, body: Array("not found; try /metrics, /livez or /readyz\n".utf8))
    }
    guard head.method == .GET || head.method == .HEAD else {
      return Response(status: .methodNotAllowed, body: Array("method not allowed\n".utf8), allow: "GET, HEAD")
    }
    switch path {
    case "/metrics":
      self.gauges.update()
      return Response(status: .ok, contentType: Self.contentType, body: self.registry.emitToBuffer())
    case "/livez":
      return Response(status: .ok, body: Array("ok\n".utf8))
    default:
      let failures = self.readiness.failures()
      let notes = self.readiness.currentNotes().map { "note: \($0)\n" }.joined()
      if failures.isEmpty {
        return Response(status: .ok, body: Array(("ready\n" + notes).utf8))
      }
      return Response(status: .serviceUnavailable, body: Array(("not ready\n" + failures.map { "\($0)\n" }.joined() + notes).utf8))
    }
  }

  private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
    let response = self.response(for: head)
    var headers = HTTPHeaders()
    headers.add(name: "connection", value: "close")
    headers.add(name: "content-type", value: response.contentType)
    headers.add(name: "content-length", value: String(response.body.count))
    if let allow = response.allow { headers.add(name: "allow", value: allow) }
    // Probes must see the current state, never a cached one.
    headers.add(name: "cache-control", value: "no-store")

    let responseHead = HTTPResponseHead(version: head.version, status: response.status, headers: headers)
    context.write(self.wrapOutboundOut(.head(responseHead)), promise: nil)
    if head.method != .HEAD, !response.body.isEmpty {
      let body = context.channel.allocator.buffer(bytes: response.body)
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
