import AsyncHTTPClient
import BinarioTracing
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import NIOCore
import NIOHTTP1
import SwiftProtobuf

typealias OTLPTraceRequest = Opentelemetry_Proto_Collector_Trace_V1_ExportTraceServiceRequest

/// One batch to export: the spans and the process's resource, encoded as the sender needs.
struct OTLPTraceExport: Sendable {
  var spans: [FinishedSpan]
  var resource: [(key: String, value: String)]

  /// The generated message (OTLP/JSON and gRPC).
  var message: OTLPTraceRequest { OTLPTraceEncoding.request(spans: self.spans, resource: self.resource) }
  /// The protobuf body (OTLP/HTTP's default), written without the generated message.
  var protobuf: [UInt8] { OTLPProtobufEncoding.request(spans: self.spans, resource: self.resource) }
}

/// Sends one OTLP export to a collector. ``run()`` holds what the sender needs between exports
/// (its connections) until ``close()``.
protocol OTLPTraceSender: Sendable {
  func send(_ export: OTLPTraceExport) async throws
  func run() async throws
  func close()
}

/// What a collector answered that was not a success, for the exporter's log line.
struct OTLPExportFailure: Error, CustomStringConvertible {
  var description: String
}

/// OTLP/HTTP: `POST` of the request to the traces URL, in protobuf or in protobuf's JSON
/// mapping (ids in hex, as OTLP/JSON asks). The HTTP client traces nothing itself: its spans
/// would be exported by the very requests that export them.
struct OTLPHTTPTraceSender: OTLPTraceSender {
  let url: String
  let json: Bool
  let headers: [(name: String, value: String)]
  let timeout: Duration
  private let client: HTTPClient
  private let closed = AsyncStream.makeStream(of: Void.self)

  init(settings: OTLPExportSettings) {
    self.url = settings.endpoint
    self.json = settings.wireProtocol == .httpJSON
    self.headers = settings.headers
    self.timeout = settings.timeout
    var configuration = HTTPClient.Configuration()
    configuration.tracing.tracer = nil
    self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  func send(_ export: OTLPTraceExport) async throws {
    var post = HTTPClientRequest(url: self.url)
    post.method = .POST
    for header in self.headers { post.headers.add(name: header.name, value: header.value) }
    if self.json {
      post.headers.replaceOrAdd(name: "Content-Type", value: "application/json")
      post.body = .bytes(ByteBuffer(bytes: try OTLPJSON.encode(export.message)))
    } else {
      post.headers.replaceOrAdd(name: "Content-Type", value: "application/x-protobuf")
      post.body = .bytes(ByteBuffer(bytes: export.protobuf))
    }
    let response = try await self.client.execute(post, timeout: TimeAmount(self.timeout))
    // A collector's answer is at most a partial-success note; only its status matters here.
    _ = try? await response.body.collect(upTo: 64 * 1024)
    guard (200 ... 299).contains(response.status.code) else {
      throw OTLPExportFailure(description: "the collector answered HTTP \(response.status.code)")
    }
  }

  func run() async throws {
    for await _ in self.closed.stream {}
    try await self.client.shutdown()
  }

  func close() { self.closed.continuation.finish() }
}

/// OTLP/gRPC: `TraceService/Export` over HTTP/2 (TLS for an `https` endpoint).
struct OTLPGRPCTraceSender: OTLPTraceSender {
  private let client: GRPCClient<HTTP2ClientTransport.Posix>
  private let metadata: Metadata
  private let timeout: Duration

  init(settings: OTLPExportSettings) throws {
    guard let url = URL(string: settings.endpoint), let host = url.host, let scheme = url.scheme else {
      throw ConfigurationError(
        setting: "OTEL_EXPORTER_OTLP_ENDPOINT",
        source: .defaults,
        reason: "\"\(settings.endpoint)\" is not a URL such as http://collector:4317"
      )
    }
    let secure = scheme == "https"
    let transport = try HTTP2ClientTransport.Posix(
      target: .dns(host: host, port: url.port ?? 4317),
      transportSecurity: secure ? .tls : .plaintext
    )
    self.client = GRPCClient(transport: transport)
    var metadata = Metadata()
    for header in settings.headers { metadata.addString(header.value, forKey: header.name.lowercased()) }
    self.metadata = metadata
    self.timeout = settings.timeout
  }

  func send(_ export: OTLPTraceExport) async throws {
    let service = Opentelemetry_Proto_Collector_Trace_V1_TraceService.Client(wrapping: self.client)
    var options = CallOptions.defaults
    options.timeout = self.timeout
    _ = try await service.export(export.message, metadata: self.metadata, options: options)
  }

  func run() async throws { try await self.client.runConnections() }

  func close() { self.client.beginGracefulShutdown() }
}

/// OTLP/JSON: protobuf's JSON mapping, but trace and span ids in lowercase hex instead of base64
/// and enums as numbers, as the OTLP specification asks.
enum OTLPJSON {
  static func encode(_ request: OTLPTraceRequest) throws -> [UInt8] {
    var options = JSONEncodingOptions()
    options.alwaysPrintEnumsAsInts = true
    let data: Data = try request.jsonUTF8Data(options: options)
    guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return Array(data) }
    object = Self.hexIDs(object) as? [String: Any] ?? object
    return Array(try JSONSerialization.data(withJSONObject: object))
  }

  private static let idKeys: Set<String> = ["traceId", "spanId", "parentSpanId"]

  private static func hexIDs(_ value: Any) -> Any {
    if var object = value as? [String: Any] {
      for (key, inner) in object {
        if Self.idKeys.contains(key), let base64 = inner as? String, let bytes = Data(base64Encoded: base64) {
          object[key] = bytes.map { String(format: "%02x", $0) }.joined()
        } else {
          object[key] = Self.hexIDs(inner)
        }
      }
      return object
    }
    if let array = value as? [Any] { return array.map(Self.hexIDs) }
    return value
  }
}
