import BinarioAuth
import BinarioDomain
import BinarioTracing
import BinarioTransport
import GRPCCore
import GRPCInProcessTransport
import InMemoryTracing
import Logging
import Prometheus
import Testing
import Tracing

@testable import BinarioServiceKit

@Suite("Server call pipeline")
struct ServerCallPipelineTests {
  static let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
  static let policy = MethodAccessPolicy([
    StringsService.echo: .level(.signedIn),
    StringsService.expand: .level(.signedIn),
    StringsService.chat: .level(.public),
  ])

  /// The runner's pipeline (every stage), with the caller believed as if it came from the gateway.
  struct Pipeline {
    let writer = CollectingLogWriter()
    let registry = PrometheusCollectorRegistry()

    func make(tracer: any Tracer) -> ServerCallPipeline {
      let writer = self.writer
      let logger = Logger(label: "t") {
        JSONLogHandler(label: $0, logLevel: .info, writer: writer, metadataProvider: ServiceLogging.metadataProvider)
      }
      return ServerCallPipeline(
        tracing: TracingServerInterceptor(tracer: tracer),
        logging: LoggingServerInterceptor(logger: logger),
        metrics: MetricsServerInterceptor(registry: self.registry),
        authorization: AuthorizationServerInterceptor(policy: ServerCallPipelineTests.policy, peerIdentity: { _ in WorkloadIdentity.gateway }),
        errors: ErrorStatusServerInterceptor(serviceName: "strings", logger: logger)
      )
    }

    func calls(_ method: String, _ code: String) -> Double? {
      PrometheusText(text: self.registry.emitToString()).value(#"grpc_server_calls_total{method="test.Strings/\#(method)",code="\#(code)"}"#)
    }
  }

  static let signedIn: Metadata = [
    CallerIdentity.MetadataKey.userID: "u-1",
    CallerIdentity.MetadataKey.roles: "passenger",
    CallerIdentity.MetadataKey.sessionID: "s-1",
  ]

  @Test("a streaming handler's producer runs with the call's request id, caller, language and span", .timeLimit(.minutes(1)))
  func producerScope() async throws {
    let pipeline = Pipeline()
    var metadata = Self.signedIn
    metadata.addString("r-1", forKey: RequestID.metadataKey)
    metadata.addString("it-IT", forKey: Language.metadataKey)
    metadata.addString(Self.parent, forKey: "traceparent")
    let received = try await withInProcessServer(
      services: [StringsService()],
      interceptors: [pipeline.make(tracer: PropagatingTracer())]
    ) { client in
      try await client.serverStreaming(
        request: ClientRequest(message: "scope?", metadata: metadata),
        descriptor: StringsService.expand,
        serializer: StringSerializer(),
        deserializer: StringDeserializer(),
        options: .defaults
      ) { response in
        #expect(response.metadata[stringValues: RequestID.metadataKey].first(where: { _ in true }) == "r-1")
        var messages: [String] = []
        for try await message in response.messages { messages.append(message) }
        return messages
      }
    }
    #expect(received.prefix(3) == ["request-id=r-1", "caller=u-1", "language=it"])
    let trace = try W3CTraceParent(String(try #require(received.last).dropFirst("traceparent=".count)))
    #expect(trace.traceID == "0af7651916cd43dd8448eb211c80319c")
    #expect(trace.spanID != "b7ad6b7169203331")
    #expect(pipeline.calls("Expand", "OK") == 1)
    let line = try #require(pipeline.writer.lines.first { $0.contains("call ended") })
    #expect(line.contains(#""rpc.code":"OK""#))
    #expect(line.contains(#""request-id":"r-1""#))
    #expect(line.contains(#""trace_id":"0af7651916cd43dd8448eb211c80319c""#))
  }

  @Test("a refusal of the access check is logged, counted and traced with its status", .timeLimit(.minutes(1)))
  func refusalObserved() async throws {
    let pipeline = Pipeline()
    let tracer = InMemoryTracer()
    try await withInProcessServer(services: [StringsService()], interceptors: [pipeline.make(tracer: tracer)]) { client throws in
      let error = await #expect(throws: RPCError.self) { try await client.echo("hello") }
      #expect(error?.code == .unauthenticated)
      #expect(try await client.echo("hello", metadata: Self.signedIn) == "hello")
    }
    #expect(pipeline.calls("Echo", "UNAUTHENTICATED") == 1)
    #expect(pipeline.calls("Echo", "OK") == 1)
    let codes = pipeline.writer.lines.filter { $0.contains("call ended") }.map { $0.contains(#""rpc.code":"UNAUTHENTICATED""#) }
    #expect(codes == [true, false])
    let spans = tracer.finishedSpans.map { $0.attributes[SpanAttributeName.rpcStatusCode]?.toSpanAttribute() }
    #expect(spans == ["UNAUTHENTICATED", "OK"])
  }

  @Test("errors become statuses in the caller's language before they are logged and counted", .timeLimit(.minutes(1)))
  func errorsMappedFirst() async throws {
    let pipeline = Pipeline()
    var metadata = Self.signedIn
    metadata.addString("it", forKey: Language.metadataKey)
    try await withInProcessServer(services: [StringsService()], interceptors: [pipeline.make(tracer: PropagatingTracer())]) { client throws in
      // Thrown by the handler (not an RPCError): a fault, INTERNAL, in Italian.
      let error = await #expect(throws: RPCError.self) { try await client.echo("boom", metadata: metadata) }
      #expect(error?.code == .internalError)
      #expect(error?.localizedMessage?.locale == "it-IT")
      // Thrown in a bidirectional call's producer, where a public method runs without a caller.
      let chat = await #expect(throws: RPCError.self) {
        try await client.bidirectionalStreaming(
          request: StreamingClientRequest(of: String.self) { writer in try await writer.write("fail") },
          descriptor: StringsService.chat,
          serializer: StringSerializer(),
          deserializer: StringDeserializer(),
          options: .defaults
        ) { response in
          for try await _ in response.messages {}
        }
      }
      #expect(chat?.code == .invalidArgument)
    }
    #expect(pipeline.calls("Echo", "INTERNAL") == 1)
    #expect(pipeline.calls("Echo", "UNKNOWN") == nil)
    #expect(pipeline.calls("Chat", "INVALID_ARGUMENT") == 1)
  }
}
