import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An OpenTelemetry collector's OTLP/HTTP traces receiver, for tests: on 127.0.0.1, it takes
/// `POST /v1/traces`, answers `200 {}`, and keeps every request as it came (content type and
/// body); of those in OTLP/JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`) it also keeps every
/// span, with the `service.name` of its resource.
public final class OTLPTraceReceiver: Sendable {
  /// One span as exported; ids in lowercase hex.
  public struct ReceivedSpan: Sendable, Hashable {
    public var service: String
    public var name: String
    public var traceID: String
    public var spanID: String
    /// Empty for a trace's root span.
    public var parentSpanID: String
    /// OTLP's `SpanKind`: 2 server, 3 client.
    public var kind: Int
    public var attributes: [String: String]
    /// OTLP's `StatusCode`: 0 unset, 1 ok, 2 error.
    public var statusCode: Int
  }

  /// One export as it arrived.
  public struct ReceivedRequest: Sendable {
    public var contentType: String
    public var body: [UInt8]
  }

  private final class State: Sendable {
    let spans = Mutex<[ReceivedSpan]>([])
    let requests = Mutex<[ReceivedRequest]>([])
    /// Answer `503` to every export while set.
    let refusing = Mutex(false)
    let keepsRequests: Bool

    init(keepsRequests: Bool) {
      self.keepsRequests = keepsRequests
    }
    let arrivals = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  }

  private let channel: any Channel
  private let state: State
  public let port: Int

  /// The base URL to export to (`--otlp-endpoint`).
  public var endpoint: String { "http://127.0.0.1:\(self.port)" }

  public var spans: [ReceivedSpan] { self.state.spans.withLock { $0 } }

  public var requests: [ReceivedRequest] { self.state.requests.withLock { $0 } }

  /// While true, every export is answered `503 Service Unavailable` (and not kept).
  public var refusing: Bool {
    get { self.state.refusing.withLock { $0 } }
    set { self.state.refusing.withLock { $0 = newValue } }
  }

  /// - Parameter keepsRequests: Keep every request's body (``requests``), not only the spans
  ///   of OTLP/JSON ones. Off for benchmarks, whose exports would pile up.
  public static func start(keepsRequests: Bool = false) async throws -> OTLPTraceReceiver {
    let state = State(keepsRequests: keepsRequests)
    let channel = try await LoopbackHTTPListener.bind { Handler(state: state) }
    return OTLPTraceReceiver(channel: channel, state: state)
  }

  private init(channel: any Channel, state: State) {
    self.channel = channel
    self.state = state
    self.port = channel.localAddress?.port ?? 0
  }

  public func stop() async {
    try? await self.channel.close()
  }

  /// Waits (on arrivals, not on time) until the spans received satisfy `done`; returns them.
  public func spans(until done: ([ReceivedSpan]) -> Bool) async -> [ReceivedSpan] {
    var arrivals = self.state.arrivals.stream.makeAsyncIterator()
    while true {
      let spans = self.spans
      if done(spans) || Task.isCancelled { return spans }
      _ = await arrivals.next()
    }
  }

  /// Reads an OTLP/JSON `ExportTraceServiceRequest`. Ids may be hex (as the OTLP/JSON spec
  /// says) or base64 (protobuf's own JSON mapping of bytes, which some exporters send).
  static func spans(inExport body: Data) -> [ReceivedSpan] {
    guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
    var spans: [ReceivedSpan] = []
    for resourceSpans in object["resourceSpans"] as? [[String: Any]] ?? [] {
      let resource = Self.attributes((resourceSpans["resource"] as? [String: Any])?["attributes"])
      for scopeSpans in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
        for span in scopeSpans["spans"] as? [[String: Any]] ?? [] {
          spans.append(
            ReceivedSpan(
              service: resource["service.name"] ?? "",
              name: span["name"] as? String ?? "",
              traceID: Self.hex(span["traceId"]),
              spanID: Self.hex(span["spanId"]),
              parentSpanID: Self.hex(span["parentSpanId"]),
              kind: span["kind"] as? Int ?? 0,
              attributes: Self.attributes(span["attributes"]),
              statusCode: (span["status"] as? [String: Any])?["code"] as? Int ?? 0
            )
          )
        }
      }
    }
    return spans
  }

  private static func attributes(_ value: Any?) -> [String: String] {
    var attributes: [String: String] = [:]
    for entry in value as? [[String: Any]] ?? [] {
      guard let key = entry["key"] as? String, let value = entry["value"] as? [String: Any], let first = value.first else { continue }
      attributes[key] = "\(first.value)"
    }
    return attributes
  }

  private static func hex(_ value: Any?) -> String {
    guard let text = value as? String, !text.isEmpty else { return "" }
    if text.count % 2 == 0, text.allSatisfy(\.isHexDigit), text.count == 16 || text.count == 32 { return text.lowercased() }
    guard let bytes = Data(base64Encoded: text) else { return text }
    return bytes.map { String(format: "%02x", $0) }.joined()
  }

  private final class Handler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    let state: State
    /// The request being read.
    private let body = Mutex<(head: HTTPRequestHead?, bytes: ByteBuffer)>((nil, ByteBuffer()))

    init(state: State) {
      self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      switch unwrapInboundIn(data) {
      case .head(let head):
        self.body.withLock { $0 = (head, ByteBuffer()) }
      case .body(var chunk):
        self.body.withLock { _ = $0.bytes.writeBuffer(&chunk) }
      case .end:
        let (head, bytes) = self.body.withLock { $0 }
        guard let head else { return }
        var status = HTTPResponseStatus.notFound
        if head.method == .POST, head.uri == "/v1/traces", self.state.refusing.withLock({ $0 }) {
          status = .serviceUnavailable
        } else if head.method == .POST, head.uri == "/v1/traces" {
          status = .ok
          let contentType = head.headers.first(name: "content-type") ?? ""
          let body = Array(bytes.readableBytesView)
          let received = contentType.hasPrefix("application/json") ? OTLPTraceReceiver.spans(inExport: Data(body)) : []
          self.state.spans.withLock { $0 += received }
          if self.state.keepsRequests {
            self.state.requests.withLock { $0.append(ReceivedRequest(contentType: contentType, body: body)) }
          }
          self.state.arrivals.continuation.yield()
        }
        let reply = Array("{}".utf8)
        let headers = HTTPHeaders([("content-type", "application/json"), ("content-length", "\(reply.count)")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
      }
    }
  }
}
