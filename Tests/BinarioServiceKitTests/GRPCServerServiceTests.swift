import BinarioProto
import GRPCCore
import GRPCInProcessTransport
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@testable import BinarioServiceKit

@Suite("gRPC server as a lifecycle service")
struct GRPCServerServiceTests {
  @Test("graceful shutdown stops the server and marks health NOT_SERVING first", .timeLimit(.minutes(1)))
  func gracefulShutdownStopsServer() async throws {
    let transport = InProcessTransport()
    let health = HealthStatusProvider()
    health.setStatus(.serving)
    let server = GRPCServer(transport: transport.server, services: [StringsService(), HealthService(provider: health)])
    let service = GRPCServerService(server: server, gracePeriod: .seconds(30), health: health, logger: Logger(label: "test"))
    let group = ServiceGroup(services: [service], logger: Logger(label: "test"))

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      try await withGRPCClient(transport: transport.client) { client throws in
        #expect(try await client.echo("up") == "up")
        let watched = try await Grpc_Health_V1_Health.Client(wrapping: client).watch(.init()) { response throws in
          var statuses: [Grpc_Health_V1_HealthCheckResponse.ServingStatus] = []
          for try await message in response.messages {
            statuses.append(message.status)
            if statuses.count == 1 { await group.triggerGracefulShutdown() }
          }
          return statuses
        }
        #expect(watched == [.serving, .notServing])
      }
      try await tasks.next()  // group.run() returned: the server stopped
    }
    #expect(health.status() == .notServing)
  }

  @Test("calls still open when the grace period is over are cancelled", .timeLimit(.minutes(1)))
  func gracePeriodCancelsOpenCalls() async throws {
    let transport = InProcessTransport()
    let server = GRPCServer(transport: transport.server, services: [StringsService()])
    let service = GRPCServerService(server: server, gracePeriod: .milliseconds(100), logger: Logger(label: "test"))
    let group = ServiceGroup(services: [service], logger: Logger(label: "test"))

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      try await withGRPCClient(transport: transport.client) { client throws in
        #expect(try await client.echo("up") == "up")  // the server runs
        // `Hang` ignores the RPC's cancellation: only cancelling the server ends it.
        async let hanging: Void = {
          _ = try? await client.unary(
            request: ClientRequest(message: ""),
            descriptor: StringsService.hang,
            serializer: StringSerializer(),
            deserializer: StringDeserializer(),
            options: .defaults
          ) { _ in }
        }()
        await group.triggerGracefulShutdown()
        try await tasks.next()  // the server stopped despite the hanging call
        await hanging
      }
    }
  }

  @Test(
    "shutdown before the server listens ends cleanly, even if the address report never comes",
    .timeLimit(.minutes(1))
  )
  func shutdownBeforeListening() async throws {
    let transport = InProcessTransport()
    let server = GRPCServer(transport: transport.server, services: [StringsService()])
    let parked = Mutex<[CheckedContinuation<Void, Never>]>([])
    let service = GRPCServerService(
      server: server,
      gracePeriod: .seconds(30),
      logger: Logger(label: "test"),
      listeningAddress: {
        // Like a transport that never bound: waits, deaf to cancellation, until the test ends.
        await withCheckedContinuation { continuation in parked.withLock { $0.append(continuation) } }
        return "never"
      }
    )
    let group = ServiceGroup(services: [service], logger: Logger(label: "test"))
    await group.triggerGracefulShutdown()  // remembered, delivered as soon as the group runs
    try await group.run()
    for continuation in parked.withLock({ $0 }) { continuation.resume() }
  }
}
