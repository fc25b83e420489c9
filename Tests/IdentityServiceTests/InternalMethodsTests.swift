import BinarioAuth
import BinarioDevCertificates
import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore
import IdentityService
import Logging
import Prometheus
import Testing

@testable import BinarioServiceKit

@Suite("Identity's internal methods: only the services that need each one")
struct InternalMethodsTests {
  let pki = IdentityTestPKI.material

  @Test("ticketing reads accounts, friendships and default cards; the gateway's certificate is refused all three")
  func whoMayCall() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    _ = try await identity.domain.addPaymentMethod(userID: ada.id, card: PaymentMethodsTests.visa, makeDefault: false)
    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.ticketing) { client in
        let found = try await client.lookupAccounts(.with { $0.emails = ["ada@example.com"] })
        #expect(found.accounts.map(\.userID) == [ada.id])
        #expect(found.accounts.first?.displayName == "Ada Lovelace")
        let friends = try await client.areFriends(
          .with {
            $0.userID = ada.id
            $0.otherUserID = "someone"
          }
        )
        #expect(!friends.friends)
        let card = try await client.getDefaultPaymentMethod(.with { $0.userID = ada.id })
        #expect(card.paymentMethod.providerToken.hasPrefix("tok_test_"))
        #expect(card.paymentMethod.paymentMethod.last4 == "4242")
        let bad = await rpcError { _ = try await client.areFriends(.init()) }
        #expect(bad?.code == .invalidArgument)
        #expect(bad?.fieldViolations.map(\.field).sorted() == ["other_user_id", "user_id"])
      }
      try await call.callAs(pki.gateway) { client in
        // Not even with a signed-in admin's metadata.
        let admin = try await identity.signedIn("root@example.com")
        for attempt in [
          { _ = try await client.lookupAccounts(.with { $0.emails = ["ada@example.com"] }, metadata: gatewayMetadata(for: admin)) },
          {
            _ = try await client.areFriends(
              .with {
                $0.userID = ada.id
                $0.otherUserID = "x"
              }
            )
          },
          { _ = try await client.getDefaultPaymentMethod(.with { $0.userID = ada.id }) },
        ] as [() async throws -> Void] {
          let error = await rpcError(attempt)
          #expect(error?.code == .permissionDenied)
        }
      }
      try await call.callAs(pki.dispatch) { client in
        // Dispatch charges fares, so it reads default cards, but has no use for friendships.
        _ = try await client.getDefaultPaymentMethod(.with { $0.userID = ada.id })
        let friends = await rpcError {
          _ = try await client.areFriends(
            .with {
              $0.userID = ada.id
              $0.otherUserID = "x"
            }
          )
        }
        #expect(friends?.code == .permissionDenied)
      }
    }
  }

  @Test("a service gets a typed identity client in one line, from --identity-address and its own certificate")
  func sharedClientHelper() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-client-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try DevCertificateSet.write(to: folder, names: ["identity", "ticketing"])
    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    let identity = try await TestIdentity()
    let ada = try await identity.confirmedAccount("ada@example.com")
    let transport = BinarioServerTransport(
      host: "127.0.0.1",
      port: 0,
      tls: .mutual(certificateChain: .file(path("identity.pem")), privateKey: .file(path("identity.key")), trustRoots: .file(path("ca.pem")))
    )
    let server = GRPCServer(
      transport: transport,
      services: [IdentityHandler(domain: identity.domain)],
      interceptors: [AuthorizationServerInterceptor(policy: .identity)]
    )
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.serve() }
      let port = try await transport.listeningAddress().port!

      var defaults = ServiceConfiguration.defaults(serviceName: "ticketing")
      defaults.tlsCertificate = path("ticketing.pem")
      defaults.tlsPrivateKey = path("ticketing.key")
      defaults.tlsTrustedCA = path("ca.pem")
      let option = try IdentityAddressOption.parse(["--identity-address", "localhost:\(port)"])
      let (configuration, additional) = try ServiceConfiguration.load(
        defaults: defaults,
        options: try ServiceOptions.parse([]),
        additionalSettings: option.additionalSettings,
        environment: [:]
      )
      let context = ServiceRunnerContext(
        configuration: configuration,
        logger: Logger(label: "test"),
        health: HealthStatusProvider(),
        metricsRegistry: PrometheusCollectorRegistry(),
        additionalSettings: additional
      )

      let client = try context.identityClient()

      let added = try #require(context.addedServices.first?.service as? GRPCClientService<BinarioClientTransport>)
      group.addTask { try await added.client.runConnections() }
      let found = try await client.lookupAccounts(.with { $0.userIds = [ada.id] })
      #expect(found.accounts.map(\.email) == ["ada@example.com"])
      added.client.beginGracefulShutdown()
      server.beginGracefulShutdown()
      try await group.waitForAll()
    }
  }

  @Test("without --identity-address, or with a malformed one, the helper says which setting to fix")
  func missingAddress() async throws {
    for flags in [[String](), ["--identity-address", "identity"]] {
      let option = try IdentityAddressOption.parse(flags)
      let (configuration, additional) = try ServiceConfiguration.load(
        defaults: .defaults(serviceName: "ticketing"),
        options: try ServiceOptions.parse([]),
        additionalSettings: option.additionalSettings,
        environment: [:]
      )
      let context = ServiceRunnerContext(
        configuration: configuration,
        logger: Logger(label: "test"),
        health: HealthStatusProvider(),
        metricsRegistry: PrometheusCollectorRegistry(),
        additionalSettings: additional
      )
      let error = #expect(throws: ConfigurationError.self) { _ = try context.identityClient() }
      #expect("\(error.map { "\($0)" } ?? "")".contains("identity"))
    }
  }
}
