import BinarioProto
import GRPCCore
import GRPCInProcessTransport
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization
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

  @Test("/readyz is 200 once the server listens and 503 from the start of graceful shutdown, while open calls finish", .timeLimit(.minutes(1)))
  func readinessFollowsTheServer() async throws {
    let inProcess = InProcessTransport()
    let writer = CollectingLogWriter()
    let logger = Logger(label: "identity") { JSONLogHandler(label: $0, logLevel: .debug, writer: writer) }
    let client = GRPCClient(transport: inProcess.client)
    let (release, releaseCall) = AsyncStream.makeStream(of: Void.self)

    let assembled = try await ServiceRunner.assemble(
      configuration: ServiceConfiguration(serviceName: "identity", metricsPort: 0),
      logger: logger,
      metricsRegistry: PrometheusCollectorRegistry(),
      transport: ServerTransportFactory(makeTransport: { _, _ in inProcess.server }, listeningAddress: { _ in "in-process" }),
      handlesSignals: false
    ) { context in
      context.addService(GRPCClientService(client: client), name: "client")
      return [StringsService(release: release)]
    }

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await assembled.run() }
      let metrics = try #require(try await assembled.metricsServer?.listeningAddress())
      @Sendable func readyz() async throws -> String {
        try await exchangeHTTP("GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n", with: metrics)
      }
      // The server reports its address (and so turns ready) just before it logs it.
      _ = await writer.firstLine { $0.contains(#""message":"listening""#) }
      #expect(try await readyz().hasPrefix("HTTP/1.1 200 OK\r\n"))

      // A server stream held open by the handler: the server drains it after shutdown begins.
      try await client.expand("ab") { response in
        var messages = response.messages.makeAsyncIterator()
        #expect(try await messages.next() == "a")
        await assembled.triggerGracefulShutdown()
        _ = await writer.firstLine { $0.contains("graceful shutdown: no new calls") }
        let draining = try await readyz()
        #expect(draining.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(draining.contains("grpc-server: draining (graceful shutdown)"))
        #expect(draining.contains("grpc-health: grpc.health.v1 reports the server NOT_SERVING"))
        releaseCall.yield()
        #expect(try await messages.next() == "b")
        #expect(try await messages.next() == nil)
      }
      try await tasks.next()  // everything stopped
    }
  }

  @Test("graceful-shutdown actions run as shutdown begins: a stream they end does not hold the server for its grace period", .timeLimit(.minutes(1)))
  func gracefulShutdownActionsEndLongStreams() async throws {
    let inProcess = InProcessTransport()
    let client = GRPCClient(transport: inProcess.client)
    let (release, releaseCall) = AsyncStream.makeStream(of: Void.self)
    // An hour's grace: only the action can end the held call in time.
    let configuration = ServiceConfiguration(serviceName: "identity", shutdownGracePeriod: 3600)

    let assembled = try await ServiceRunner.assemble(
      configuration: configuration,
      logger: Logger(label: "test"),
      metricsRegistry: PrometheusCollectorRegistry(),
      transport: ServerTransportFactory(makeTransport: { _, _ in inProcess.server }, listeningAddress: { _ in "in-process" }),
      handlesSignals: false
    ) { context in
      context.addService(GRPCClientService(client: client), name: "client")
      context.onGracefulShutdown { releaseCall.finish() }
      return [StringsService(release: release)]
    }

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await assembled.run() }
      let received = try await client.expand("ab") { response in
        var messages: [String] = []
        for try await message in response.messages {
          messages.append(message)
          if messages.count == 1 { await assembled.triggerGracefulShutdown() }
        }
        return messages
      }
      #expect(received == ["a", "b"])  // the call ended normally, not cancelled
      try await tasks.next()  // and the process stopped without waiting out the grace period
    }
  }

  @Test("a process without a GRPCCore server runs its graceful-shutdown actions before its server drains", .timeLimit(.minutes(1)))
  func gracefulShutdownActionsWithoutAGRPCServer() async throws {
    let order = Mutex<[String]>([])
    let group = try await ServiceRunner.assembleServices(
      configuration: ServiceConfiguration(serviceName: "gateway"),
      logger: Logger(label: "test"),
      metricsRegistry: PrometheusCollectorRegistry(),
      handlesSignals: false
    ) { context in
      context.addService(DrainingServer { order.withLock { $0.append("server drained") } }, name: "server")
      context.onGracefulShutdown { order.withLock { $0.append("action") } }
    }
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      await group.triggerGracefulShutdown()
      try await tasks.next()
    }
    #expect(order.withLock { $0 } == ["action", "server drained"])
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
    #expect(lines.first?.contains(#""level":"info""#) == true)
    #expect(lines.last?.contains(#""rpc.code":"PERMISSION_DENIED""#) == true)
    #expect(lines.last?.contains(#""level":"info""#) == true)
  }
}

/// Stands in for a frame-layer server: runs until graceful shutdown, then reports its drain.
private struct DrainingServer: Service {
  let drained: @Sendable () -> Void

  func run() async throws {
    try await gracefulShutdown()
    self.drained()
  }
}
