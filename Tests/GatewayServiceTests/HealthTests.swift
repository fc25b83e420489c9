import BinarioEcho
import BinarioProto
import BinarioServiceKit
import BinarioTransport
import GRPCCore
import GatewayService
import Testing

private typealias ServingStatus = Grpc_Health_V1_HealthCheckResponse.ServingStatus

/// Expects the gateway to answer `expected` for `service`.
private func expectStatus(
  _ health: Grpc_Health_V1_Health.Client<BinarioClientTransport>,
  _ service: String,
  _ expected: ServingStatus,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  let answered = try await status(health, service)
  #expect(answered == expected, sourceLocation: sourceLocation)
}

/// The status the gateway answers for `service`.
private func status(
  _ health: Grpc_Health_V1_Health.Client<BinarioClientTransport>,
  _ service: String
) async throws -> Grpc_Health_V1_HealthCheckResponse.ServingStatus {
  try await health.check(.with { $0.service = service }).status
}

@Suite("Health: the gateway is serving when the upstreams it routes to are")
struct HealthTests {
  private func upstreamHealth() -> HealthStatusProvider {
    let provider = HealthStatusProvider()
    provider.setStatus(.serving)
    provider.setStatus(.serving, forService: "binario.echo.v1.Echo")
    return provider
  }

  @Test func checkFollowsTheUpstream() async throws {
    let provider = self.upstreamHealth()
    let upstream = try await TestUpstream.start(services: [EchoService(), HealthService(provider: provider)])
    try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
      try await withGatewayClient(gateway) { client in
        let health = Grpc_Health_V1_Health.Client(wrapping: client)
        try await expectStatus(health, "", .serving)
        try await expectStatus(health, "echo", .serving)
        try await expectStatus(health, "binario.echo.v1.Echo", .serving)

        provider.setStatus(.notServing, forService: "binario.echo.v1.Echo")
        try await expectStatus(health, "binario.echo.v1.Echo", .notServing)
        try await expectStatus(health, "", .serving)

        await upstream.stop()
        try await expectStatus(health, "", .notServing)
        try await expectStatus(health, "echo", .notServing)

        let error = await #expect(throws: RPCError.self) { try await health.check(.with { $0.service = "nothing.here" }) }
        #expect(error?.code == .notFound)
      }
    }
  }

  @Test func oneUpstreamDownMakesTheGatewayNotServing() async throws {
    let port = try await unusedPort()
    let provider = self.upstreamHealth()
    try await withUpstream(services: [HealthService(provider: provider)]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port, "identity": port]) { gateway in
        try await withGatewayClient(gateway) { client in
          let health = Grpc_Health_V1_Health.Client(wrapping: client)
          try await expectStatus(health, "echo", .serving)
          try await expectStatus(health, "identity", .notServing)
          try await expectStatus(health, "", .notServing)
        }
      }
    }
  }

  @Test func watchSeesTheUpstreamGoDown() async throws {
    let provider = self.upstreamHealth()
    let upstream = try await TestUpstream.start(services: [HealthService(provider: provider)])
    try await withGateway(upstreams: ["echo": upstream.port]) { gateway in
      try await withGatewayClient(gateway) { client in
        let health = Grpc_Health_V1_Health.Client(wrapping: client)
        let statuses = try await health.watch(.with { $0.service = "" }) { response in
          var statuses: [Grpc_Health_V1_HealthCheckResponse.ServingStatus] = []
          for try await message in response.messages {
            statuses.append(message.status)
            if message.status == .serving { await upstream.stop() }
            if message.status == .notServing { break }
          }
          return statuses
        }
        #expect(statuses == [.serving, .notServing])
      }
    }
  }
}
