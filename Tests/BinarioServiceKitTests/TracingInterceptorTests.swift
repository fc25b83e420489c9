import BinarioServiceKit
import BinarioTracing
import GRPCCore
import GRPCInProcessTransport
import InMemoryTracing
import Logging
import Testing
import Tracing

@Suite("Tracing interceptors")
struct TracingInterceptorTests {
  static let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

  @Test("a call continues the caller's traceparent: same trace, new span, flags kept", .timeLimit(.minutes(1)))
  func continuesTrace() async throws {
    let seen = try await withInProcessServer(
      services: [StringsService()],
      interceptors: [TracingServerInterceptor(tracer: PropagatingTracer())]
    ) { client in
      try await client.echo("traceparent?", metadata: ["traceparent": .string(Self.parent)])
    }
    let trace = try #require(try? W3CTraceParent(seen))
    #expect(trace.traceID == "0af7651916cd43dd8448eb211c80319c")
    #expect(trace.spanID != "b7ad6b7169203331")
    #expect(trace.flags == "01")
  }

  @Test(
    "a malformed or absent traceparent starts a new trace, never an error",
    arguments: [
      "", "garbage", "00-00000000000000000000000000000000-b7ad6b7169203331-01",
      "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01", "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",
      "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", nil,
    ]
  )
  func replacesMalformed(header: String?) async throws {
    let metadata: Metadata = header.map { ["traceparent": .string($0)] } ?? [:]
    let seen = try await withInProcessServer(
      services: [StringsService()],
      interceptors: [TracingServerInterceptor(tracer: PropagatingTracer())]
    ) { client in
      try await client.echo("traceparent?", metadata: metadata)
    }
    let trace = try #require(try? W3CTraceParent(seen))
    #expect(trace.traceID != "0af7651916cd43dd8448eb211c80319c")
    #expect(trace.traceID != String(repeating: "0", count: 32))
    #expect(trace.flags == "00")
  }

  @Test("the call's log line carries the trace and span ids of its span", .timeLimit(.minutes(1)))
  func logLineCarriesIDs() async throws {
    let writer = CollectingLogWriter()
    let logger = Logger(label: "t") {
      JSONLogHandler(label: $0, logLevel: .info, writer: writer, metadataProvider: ServiceLogging.metadataProvider)
    }
    let seen = try await withInProcessServer(
      services: [StringsService()],
      interceptors: [TracingServerInterceptor(tracer: PropagatingTracer()), LoggingServerInterceptor(logger: logger)]
    ) { client in
      try await client.echo("traceparent?", metadata: ["traceparent": .string(Self.parent)])
    }
    let trace = try W3CTraceParent(seen)
    let line = try #require(writer.lines.first)
    #expect(line.contains(#""trace_id":"0af7651916cd43dd8448eb211c80319c""#))
    #expect(line.contains(#""span_id":"\#(trace.spanID)""#))
    #expect(line.contains(#""trace_flags":"1""#))
  }

  @Test("client and server spans nest: the server span is the client span's child", .timeLimit(.minutes(1)))
  func spansNest() async throws {
    let tracer = InMemoryTracer()
    let transport = InProcessTransport()
    try await withGRPCServer(
      transport: transport.server,
      services: [StringsService()],
      interceptors: [TracingServerInterceptor(tracer: tracer)]
    ) { _ in
      try await withGRPCClient(
        transport: transport.client,
        interceptors: [TracingClientInterceptor(serverAddress: "strings", serverPort: 7000, tracer: tracer)]
      ) { client in
        _ = try await client.echo("hello")
        await #expect(throws: RPCError.self) { try await client.echo("fail:5") }
        await #expect(throws: RPCError.self) { try await client.echo("boom") }
      }
    }
    let spans = tracer.finishedSpans
    #expect(spans.count == 6)
    let clients = spans.filter { $0.kind == .client }
    let servers = spans.filter { $0.kind == .server }
    #expect(clients.count == 3 && servers.count == 3)
    for (client, server) in zip(clients, servers) {
      #expect(client.operationName == "test.Strings/Echo")
      #expect(server.operationName == "test.Strings/Echo")
      #expect(server.traceID == client.traceID)
      #expect(server.spanContext.parentSpanID == client.spanID)
      #expect(client.attributes[SpanAttributeName.rpcMethod]?.toSpanAttribute() == "test.Strings/Echo")
      #expect(client.attributes[SpanAttributeName.serverAddress]?.toSpanAttribute() == "strings")
    }
    #expect(clients.map { $0.attributes[SpanAttributeName.rpcStatusCode]?.toSpanAttribute() } == ["OK", "NOT_FOUND", "UNKNOWN"])
    #expect(servers.map { $0.attributes[SpanAttributeName.rpcStatusCode]?.toSpanAttribute() } == ["OK", "NOT_FOUND", "UNKNOWN"])
    // NOT_FOUND is the caller's error at the server, a failure at the client; UNKNOWN both.
    #expect(clients.map { $0.status?.code } == [nil, .error, .error])
    #expect(servers.map { $0.status?.code } == [nil, nil, .error])
  }
}

/// The fields of a `traceparent` value, split without judging them.
struct W3CTraceParent {
  var traceID: String
  var spanID: String
  var flags: String

  struct Malformed: Error {}

  init(_ text: String) throws {
    let parts = text.split(separator: "-").map(String.init)
    guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16, parts[3].count == 2 else {
      throw Malformed()
    }
    (self.traceID, self.spanID, self.flags) = (parts[1], parts[2], parts[3])
  }
}
