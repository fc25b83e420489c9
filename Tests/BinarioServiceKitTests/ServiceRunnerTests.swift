import BinarioProto
import GRPCCore
import GRPCInProcessTransport
import Logging
import Prometheus
import Testing

@testable import BinarioServiceKit

@Suite("Service runner")
struct ServiceRunnerTests {
  @Test("an assembled service serves its RPCs with health, metrics and logging, and shuts down gracefully", .timeLimit(.minutes(1)))
  func assembledService() async throws {
    let inProcess = InProcessTransport()
    let writer = CollectingLogWriter()
    let logger = Logger(label: "identity") { JSONLogHandler(label: $0, logLevel: .debug, writer: writer) }
    let registry = PrometheusCollectorRegistry()
    let configuration = ServiceConfiguration(serviceName: "identity", metricsPort: 0)
    let client = GRPCClient(transport: inProcess.client)

    let assembled = try await ServiceRunner.assemble(
      configuration: configuration,
      logger: logger,
      metricsRegistry: registry,
      transport: ServerTransportFactory(
        makeTransport: { _, _ in inProcess.server },
        listeningAddress: { _ in "in-process" }
      ),
      handlesSignals: false
    ) { context in
      #expect(context.configuration == configuration)
      context.addService(GRPCClientService(client: client), name: "client")
      return [StringsService()]
    }
    #expect(assembled.health.status(forService: "") == .serving)
    #expect(assembled.health.status(forService: StringsService.serviceName) == .serving)
    #expect(assembled.health.status(forService: "grpc.health.v1.Health") == .serving)

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await assembled.run() }

      let response = try await client.echoResponse("request-id?", metadata: ["request-id": "abc-123"])
      #expect(try response.message == "abc-123")  // the handler saw the caller's request id
      #expect(Array(response.metadata[stringValues: "request-id"]) == ["abc-123"])

      let metricsAddress = try #require(try await assembled.metricsServer?.listeningAddress())
      let metrics = try await exchangeHTTP("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", with: metricsAddress)
      #expect(metrics.contains(#"grpc_server_calls_total{method="test.Strings/Echo",code="OK"} 1"#))

      let health = Grpc_Health_V1_Health.Client(wrapping: client)
      let watched = try await health.watch(.with { $0.service = StringsService.serviceName }) { response throws in
        var statuses: [Grpc_Health_V1_HealthCheckResponse.ServingStatus] = []
        for try await message in response.messages {
          statuses.append(message.status)
          if statuses.count == 1 { await assembled.triggerGracefulShutdown() }
        }
        return statuses
      }
      #expect(watched == [.serving, .notServing])
      try await tasks.next()  // everything stopped
    }

    let lines = writer.lines
    #expect(lines.contains { $0.contains(#""message":"listening""#) && $0.contains(#""address":"in-process""#) })
    #expect(
      lines.contains {
        $0.contains(#""message":"call ended""#) && $0.contains(#""request-id":"abc-123""#)
          && $0.contains(#""rpc.code":"OK""#) && $0.contains(#""rpc.method":"test.Strings/Echo""#)
      }
    )
  }

  @Test("the logging interceptor makes a request id when the caller sends none", .timeLimit(.minutes(1)))
  func generatedRequestID() async throws {
    let writer = CollectingLogWriter()
    let logger = Logger(label: "t") { JSONLogHandler(label: $0, logLevel: .debug, writer: writer) }
    try await withInProcessServer(services: [StringsService()], interceptors: [LoggingServerInterceptor(logger: logger)]) { client throws in
      let response = try await client.echoResponse("request-id?")
      let seen = try response.message
      #expect(seen != "none" && !seen.isEmpty)
      #expect(Array(response.metadata[stringValues: "request-id"]) == [seen])

      await #expect(throws: RPCError.self) { try await client.echo("fail:7") }
    }
    let lines = writer.lines
    #expect(lines.count == 2)
    #expect(lines.first?.contains(#""level":"debug""#) == true)
    #expect(lines.last?.contains(#""rpc.code":"PERMISSION_DENIED""#) == true)
    #expect(lines.last?.contains(#""level":"info""#) == true)
  }
}
