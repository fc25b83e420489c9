import BinarioTestSupport
import BinarioTracing
import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2Posix
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import Tracing
import W3CTraceContext

@testable import BinarioServiceKit

/// A sender that keeps every export, and lets a test wait for them.
private final class RecordingSender: OTLPTraceSender {
  private let sent = Mutex<[OTLPTraceRequest]>([])
  private let arrivals = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
  private let closed = AsyncStream.makeStream(of: Void.self)

  var requests: [OTLPTraceRequest] { self.sent.withLock { $0 } }
  var spanCounts: [Int] { self.requests.map { $0.resourceSpans[0].scopeSpans[0].spans.count } }

  func send(_ export: OTLPTraceExport) async throws {
    self.sent.withLock { $0.append(export.message) }
    self.arrivals.continuation.yield()
  }

  func run() async throws { for await _ in self.closed.stream {} }
  func close() { self.closed.continuation.finish() }

  func waitFor(spans total: Int) async {
    var arrivals = self.arrivals.stream.makeAsyncIterator()
    while self.spanCounts.reduce(0, +) < total, !Task.isCancelled { _ = await arrivals.next() }
  }
}

@Suite("Exporting spans in batches, without a task per span")
struct SpanExportTests {
  private static func span(_ name: String, kind: SpanKind = .server) -> FinishedSpan {
    let trace = TraceContext(
      traceID: TraceIdentifiers.traceID(),
      spanID: TraceIdentifiers.spanID(),
      flags: .sampled,
      state: TraceState()
    )
    return FinishedSpan(
      operationName: name,
      kind: kind,
      trace: trace,
      parentSpanID: nil,
      startNanoseconds: 1_000,
      endNanoseconds: 2_000,
      attributes: [:],
      status: nil,
      events: [],
      links: []
    )
  }

  private static func exporter(_ queue: SpanExportQueue, _ sender: RecordingSender) -> OTLPSpanExporter<ContinuousClock> {
    // An hour's delay: whatever is sent in these tests was sent because a batch filled or the
    // process stopped, never because time passed.
    OTLPSpanExporter(
      queue: queue,
      sender: sender,
      resource: [(key: "service.name", value: "test")],
      scheduleDelay: .seconds(3600),
      clock: ContinuousClock(),
      logger: Logger(label: "test")
    )
  }

  @Test(.timeLimit(.minutes(1)))
  func aFullBatchIsSentAtOnceAndTheRestWhenTheProcessStops() async throws {
    let queue = SpanExportQueue(maxQueueSize: 100, batchSize: 4)
    let sender = RecordingSender()
    let group = ServiceGroup(services: [Self.exporter(queue, sender)], logger: Logger(label: "test"))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      for index in 0 ..< 10 { queue.append(Self.span("call \(index)")) }
      await sender.waitFor(spans: 8)
      #expect(sender.spanCounts == [4, 4])
      await group.triggerGracefulShutdown()
      try await tasks.waitForAll()
    }
    #expect(sender.spanCounts == [4, 4, 2])
    let names = sender.requests.flatMap { $0.resourceSpans[0].scopeSpans[0].spans.map(\.name) }
    #expect(names == (0 ..< 10).map { "call \($0)" })
    #expect(sender.requests[0].resourceSpans[0].resource.attributes.first?.value.stringValue == "test")
  }

  @Test func aFullQueueDropsNewSpansAndCountsThem() {
    let queue = SpanExportQueue(maxQueueSize: 4, batchSize: 2)
    for index in 0 ..< 6 { queue.append(Self.span("call \(index)")) }
    let first = queue.take()
    #expect(first.spans.map(\.operationName) == ["call 0", "call 1"])
    #expect(first.dropped == 2)
    let second = queue.take()
    #expect(second.spans.map(\.operationName) == ["call 2", "call 3"])
    #expect(second.dropped == 0 && !second.closed)
  }

  @Test func aSpanBecomesOTLP() throws {
    var finished = Self.span("binario.identity.v1.IdentityService/GetMe", kind: .client)
    finished.parentSpanID = TraceIdentifiers.spanID()
    finished.attributes["rpc.system"] = "grpc"
    finished.attributes["server.port"] = 8443
    finished.attributes["binario.roles"] = ["traveller", "driver"]
    finished.status = SpanStatus(code: .error, message: "UNAVAILABLE")
    let span = OTLPTraceEncoding.span(finished)
    #expect(span.traceID.map { String(format: "%02x", $0) }.joined() == finished.trace.traceID.description)
    #expect(span.spanID.map { String(format: "%02x", $0) }.joined() == finished.trace.spanID.description)
    #expect(span.parentSpanID.map { String(format: "%02x", $0) }.joined() == finished.parentSpanID?.description)
    #expect(span.kind == .client && span.flags == 1)
    #expect(span.startTimeUnixNano == 1_000 && span.endTimeUnixNano == 2_000)
    let attributes = Dictionary(uniqueKeysWithValues: span.attributes.map { ($0.key, $0.value) })
    #expect(attributes["rpc.system"]?.stringValue == "grpc")
    #expect(attributes["server.port"]?.intValue == 8443)
    #expect(attributes["binario.roles"]?.arrayValue.values.map(\.stringValue) == ["traveller", "driver"])
    #expect(span.status.code == .error && span.status.message == "UNAVAILABLE")
  }

  @Test func theProtobufBodyIsWhatSwiftProtobufWouldWrite() throws {
    var full = Self.span("binario.ticketing.v1.Tickets/Purchase", kind: .server)
    full.parentSpanID = TraceIdentifiers.spanID()
    full.trace.state = TraceState([(.simple("rojo"), "00f067aa0ba902b7")])
    full.attributes["rpc.system"] = "grpc"
    full.attributes["empty"] = ""
    full.attributes["port"] = 8443
    full.attributes["negative"] = -3
    full.attributes["ratio"] = 0.25
    full.attributes["zero"] = 0
    full.attributes["yes"] = true
    full.attributes["no"] = false
    full.attributes["roles"] = ["traveller", "driver"]
    full.attributes["counts"] = [1, 2, 3] as [Int64]
    // Longer than 127 and than 16,383 bytes: lengths of two and three bytes.
    full.attributes["long"] = String(repeating: "binario ", count: 40)
    full.attributes["longer"] = String(repeating: "lombardia ", count: 2_000)
    full.status = SpanStatus(code: .error, message: "INTERNAL")
    full.events = [SpanEvent(name: "exception", at: DefaultTracerClock.now, attributes: ["exception.type": "Refused"])]
    full.links = [FinishedSpan.Link(trace: Self.span("other").trace, attributes: ["why": "retry"])]
    var ok = Self.span("ok")
    ok.status = SpanStatus(code: .ok)
    let spans = [full, ok] + (0 ..< 300).map { Self.span("call \($0)") }
    let export = OTLPTraceExport(spans: spans, resource: [(key: "service.name", value: "ticketing"), (key: "host", value: "")])
    let decoded = try OTLPTraceRequest(serializedBytes: export.protobuf)
    #expect(decoded == export.message)
    #expect(export.protobuf == (try export.message.serializedBytes() as [UInt8]))
  }

  @Test func settingsComeFromOpenTelemetrysVariables() throws {
    let plain = try OTLPExportSettings.from(base: "http://collector:4318", serviceName: "identity", environment: [:])
    #expect(plain.endpoint == "http://collector:4318/v1/traces")
    #expect(plain.wireProtocol == .httpProtobuf && plain.sampler == .parentBased(root: .alwaysOn))
    #expect(plain.scheduleDelay == .seconds(5) && plain.maxQueueSize == 2048 && plain.maxExportBatchSize == 512)
    #expect(plain.resource.map(\.key) == ["service.name"] && plain.resource[0].value == "identity")

    let set = try OTLPExportSettings.from(
      base: "http://flag:4318",
      serviceName: "identity",
      environment: [
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4317",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        "OTEL_EXPORTER_OTLP_HEADERS": "api-key=se%20cret,tenant=lombardia",
        "OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
        "OTEL_BSP_SCHEDULE_DELAY": "50",
        "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "64",
        "OTEL_TRACES_SAMPLER": "parentbased_traceidratio",
        "OTEL_TRACES_SAMPLER_ARG": "0.25",
        "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=staging,service.name=ignored",
        "OTEL_SERVICE_NAME": "identity-eu",
      ]
    )
    #expect(set.endpoint == "http://collector:4317" && set.wireProtocol == .grpc)
    #expect(set.headers.map(\.name) == ["api-key", "tenant"] && set.headers[0].value == "se cret")
    #expect(set.timeout == .milliseconds(2500) && set.scheduleDelay == .milliseconds(50) && set.maxExportBatchSize == 64)
    #expect(set.sampler == .parentBased(root: .traceIDRatio(0.25)))
    #expect(set.resource.map(\.key) == ["service.name", "deployment.environment"] && set.resource[0].value == "identity-eu")

    let traces = try OTLPExportSettings.from(
      base: "http://flag:4318",
      serviceName: "x",
      environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://collector.example/otlp/traces"]
    )
    #expect(traces.endpoint == "https://collector.example/otlp/traces")

    #expect(throws: ConfigurationError.self) {
      try OTLPExportSettings.from(base: "http://c:4318", serviceName: "x", environment: ["OTEL_EXPORTER_OTLP_PROTOCOL": "thrift"])
    }
    do {
      _ = try OTLPExportSettings.from(base: "http://c:4318", serviceName: "x", environment: ["OTEL_BSP_SCHEDULE_DELAY": "soon"])
      Issue.record("a delay that is not a number was taken")
    } catch let error as ConfigurationError {
      #expect(error.setting == "OTEL_BSP_SCHEDULE_DELAY")
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func overHTTPInProtobufAndJSON() async throws {
    let receiver = try await OTLPTraceReceiver.start(keepsRequests: true)
    defer { Task { await receiver.stop() } }
    var span = Self.span("binario.scheduling.v1.SchedulingService/ListDepartures")
    span.parentSpanID = TraceIdentifiers.spanID()
    let export = OTLPTraceExport(spans: [span], resource: [(key: "service.name", value: "scheduling")])

    for wireProtocol in [OTLPExportSettings.WireProtocol.httpProtobuf, .httpJSON] {
      var settings = try OTLPExportSettings.from(base: receiver.endpoint, serviceName: "scheduling", environment: [:])
      settings.wireProtocol = wireProtocol
      let sender = OTLPHTTPTraceSender(settings: settings)
      try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await sender.run() }
        try await sender.send(export)
        sender.close()
        try await tasks.waitForAll()
      }
    }
    let requests = receiver.requests
    try #require(requests.count == 2)
    #expect(requests[0].contentType == "application/x-protobuf")
    #expect(try OTLPTraceRequest(serializedBytes: requests[0].body) == export.message)
    #expect(requests[1].contentType == "application/json")
    let received = try #require(receiver.spans.first)
    #expect(received.service == "scheduling" && received.name == span.operationName)
    #expect(received.traceID == span.trace.traceID.description && received.spanID == span.trace.spanID.description)
    #expect(received.parentSpanID == span.parentSpanID?.description && received.kind == 2)
    // OTLP/JSON's ids are hex, not protobuf JSON's base64.
    #expect(String(decoding: requests[1].body, as: UTF8.self).contains("\"\(span.trace.traceID.description)\""))
  }

  @Test(.timeLimit(.minutes(1)))
  func aCollectorThatRefusesIsAnErrorToTheExporter() async throws {
    let receiver = try await OTLPTraceReceiver.start(keepsRequests: true)
    defer { Task { await receiver.stop() } }
    receiver.refusing = true
    let settings = try OTLPExportSettings.from(base: receiver.endpoint, serviceName: "x", environment: [:])
    let sender = OTLPHTTPTraceSender(settings: settings)
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await sender.run() }
      await #expect(throws: OTLPExportFailure.self) {
        try await sender.send(OTLPTraceExport(spans: [Self.span("x")], resource: []))
      }
      sender.close()
      try await tasks.waitForAll()
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func overGRPC() async throws {
    let collector = TraceCollector()
    let server = GRPCServer(
      transport: HTTP2ServerTransport.Posix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
      services: [collector]
    )
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await server.serve() }
      let port = try #require(try await server.listeningAddress?.ipv4?.port)
      var settings = try OTLPExportSettings.from(
        base: "http://127.0.0.1:\(port)",
        serviceName: "dispatch",
        environment: ["OTEL_EXPORTER_OTLP_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_HEADERS": "api-key=k"]
      )
      settings.timeout = .seconds(30)
      let sender = try OTLPGRPCTraceSender(settings: settings)
      tasks.addTask { try await sender.run() }
      let export = OTLPTraceExport(spans: [Self.span("a"), Self.span("b")], resource: [(key: "service.name", value: "dispatch")])
      try await sender.send(export)
      sender.close()
      server.beginGracefulShutdown()
      try await tasks.waitForAll()
      #expect(collector.received == [export.message])
      #expect(collector.apiKeys == ["k"])
    }
  }
}

/// A collector's gRPC trace service that keeps what it is sent.
private final class TraceCollector: Opentelemetry_Proto_Collector_Trace_V1_TraceService.ServiceProtocol {
  private let state = Mutex<(requests: [OTLPTraceRequest], apiKeys: [String])>(([], []))
  var received: [OTLPTraceRequest] { self.state.withLock { $0.requests } }
  var apiKeys: [String] { self.state.withLock { $0.apiKeys } }

  func export(
    request: ServerRequest<OTLPTraceRequest>,
    context: ServerContext
  ) async throws -> ServerResponse<Opentelemetry_Proto_Collector_Trace_V1_ExportTraceServiceResponse> {
    self.state.withLock {
      $0.requests.append(request.message)
      $0.apiKeys += request.metadata[stringValues: "api-key"]
    }
    return ServerResponse(message: Opentelemetry_Proto_Collector_Trace_V1_ExportTraceServiceResponse())
  }
}
