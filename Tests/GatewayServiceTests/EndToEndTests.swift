import BinarioAuth
import BinarioProto
import BinarioServiceKit
import BinarioStorage
import BinarioTransport
import Foundation
import GRPCCore
import GatewayService
import IdentityService
import Testing

@Suite("End to end: the real identity service behind the gateway")
struct EndToEndTests {
  @Test func theGatewayIsServingWhenIdentityIs() async throws {
    let database = try TemporaryDatabase(migrations: IdentityMigrations.all)
    let domain = try await IdentityDomain.start(store: IdentityStore(pool: database.pool), policy: .forTests)
    let health = HealthStatusProvider()
    health.setStatus(.serving)
    // As ServiceRunner runs identity: its access interceptor in front of every method, health's too.
    let identityServer = try await TestUpstream.start(
      services: [IdentityHandler(domain: domain), HealthService(provider: health)],
      interceptors: [AuthorizationServerInterceptor(policy: .identity.merging(.health))]
    )
    try await withGateway(upstreams: ["identity": identityServer.port], authorizer: nil) { gateway in
      try await withGatewayClient(gateway) { client in
        let status = try await Grpc_Health_V1_Health.Client(wrapping: client).check(.with { $0.service = "" }).status
        #expect(status == Grpc_Health_V1_HealthCheckResponse.ServingStatus.serving)
      }
    }
    await identityServer.kill()
  }

  @Test func registerConfirmLoginMeLogoutThenTheOldTokenIsRefused() async throws {
    let database = try TemporaryDatabase(migrations: IdentityMigrations.all)
    let store = IdentityStore(pool: database.pool)
    let domain = try await IdentityDomain.start(store: store, policy: .forTests)
    let identityServer = try await TestUpstream.start(
      services: [IdentityHandler(domain: domain)],
      interceptors: [AuthorizationServerInterceptor(policy: .identity.merging(.health))]
    )
    try await withGateway(upstreams: ["identity": identityServer.port], authorizer: nil) { gateway in
      await gateway.gateway.signingKeys.waitUntilLoaded()
      try await withGatewayClient(gateway) { client in
        let identity = Binario_Identity_V1_Identity.Client(wrapping: client)
        let email = "ada@example.com"
        let password = "correct horse 42"
        _ = try await identity.register(
          .with {
            $0.email = email
            $0.password = password
            $0.firstName = "Ada"
            $0.lastName = "Lovelace"
            $0.phone = "+393331234567"
            $0.birthDate = "1990-05-17"
            $0.gender = .female
          }
        )
        let mail = try #require(try await store.outboxMessages(recipient: email, limit: 1).first)
        let code = try #require(mail.subject.split(separator: " ").last.map(String.init))
        _ = try await identity.confirmEmail(
          .with {
            $0.email = email
            $0.code = code
          }
        )
        let tokens = try await identity.login(
          .with {
            $0.email = email
            $0.password = password
          }
        ).tokens
        let bearer: Metadata = ["authorization": .string("Bearer \(tokens.accessToken)")]
        let me = try await identity.getMe(.init(), metadata: bearer)
        #expect(me.profile.email == email)

        // A client claiming to be someone else is ignored: the gateway replaces x-user-id.
        var spoofing = bearer
        spoofing.addString("someone-else", forKey: "x-user-id")
        #expect(try await identity.getMe(.init(), metadata: spoofing).profile.userID == me.profile.userID)

        _ = try await identity.logout(.init(), metadata: bearer)
        let error = await #expect(throws: RPCError.self) { _ = try await identity.getMe(.init(), metadata: bearer) }
        #expect(error?.code == .unauthenticated)
      }
    }
    await identityServer.stop()
  }
}
