import BinarioDevCertificates
import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCProtobuf
import Testing

/// Answers with the caller's certificate identity.
private struct WhoAmIService: Binario_Echo_V1_Echo.SimpleServiceProtocol {
  func get(request: Binario_Echo_V1_EchoRequest, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse {
    .with { $0.text = context.binarioPeerIdentity?.uri ?? "nobody" }
  }
  func expand(request: Binario_Echo_V1_EchoRequest, response: RPCWriter<Binario_Echo_V1_EchoResponse>, context: ServerContext) async throws {}
  func collect(request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>, context: ServerContext) async throws -> Binario_Echo_V1_EchoResponse
  { .init() }
  func update(
    request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>,
    response: RPCWriter<Binario_Echo_V1_EchoResponse>,
    context: ServerContext
  ) async throws {}
}

@Suite("Peer identity from the client certificate")
struct PeerIdentityTests {
  @Test func theHandlerSeesTheCallersURISAN() async throws {
    try await withTestServer(services: [WhoAmIService()]) { port, _ in
      try await withTestClient(port: port, tls: TestPKI.clientTLS(TestPKI.material.gateway)) { client, _ in
        let reply = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.init())
        #expect(reply.text == "spiffe://binario/gateway")
      }
    }
  }

  enum Misfit: String, CaseIterable, Sendable {
    case noURISAN, twoURISANs, anotherCA

    var leaf: DevLeafCertificate {
      switch self {
      case .noURISAN: return TestPKI.material.noURIClient
      case .twoURISANs: return TestPKI.material.twoURIClient
      case .anotherCA: return TestPKI.material.otherCAClient
      }
    }
  }

  @Test(arguments: Misfit.allCases)
  func aCertificateThatIdentifiesNobodyIsRefusedWhileOthersAreServed(_ misfit: Misfit) async throws {
    let label = misfit.rawValue
    let leaf = misfit.leaf
    try await withTestServer(services: [WhoAmIService()]) { port, _ in
      try await withTestClient(port: port, tls: TestPKI.clientTLS(leaf)) { client, _ in
        let error = await #expect(throws: RPCError.self, "\(label)") {
          _ = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.init())
        }
        #expect(error?.code == .unavailable, "\(label)")
      }
      // The server keeps serving a good client.
      try await withTestClient(port: port) { client, _ in
        let reply = try await Binario_Echo_V1_Echo.Client(wrapping: client).get(.init())
        #expect(reply.text == "spiffe://binario/identity")
      }
    }
  }
}
