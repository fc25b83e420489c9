import BinarioAuth
import BinarioDevCertificates
import BinarioProto
import BinarioTransport
import GRPCCore
import IdentityService

/// Certificates for the handler tests, made once per run: a CA, identity's server certificate,
/// and client certificates for the gateway and for another service (dispatch).
enum IdentityTestPKI {
  struct Material: Sendable {
    let ca: DevCertificateAuthority
    let identity: DevLeafCertificate
    let gateway: DevLeafCertificate
    let dispatch: DevLeafCertificate
    let ticketing: DevLeafCertificate
  }

  static let material: Material = {
    do {
      let ca = try DevCertificateAuthority.create(commonName: "Binario Identity Test CA")
      return Material(
        ca: ca,
        identity: try ca.issue(commonName: "identity", uriSANs: ["spiffe://binario/identity"], dnsSANs: ["localhost"]),
        gateway: try ca.issue(commonName: "gateway", uriSANs: ["spiffe://binario/gateway"], dnsSANs: []),
        dispatch: try ca.issue(commonName: "dispatch", uriSANs: ["spiffe://binario/dispatch"], dnsSANs: []),
        ticketing: try ca.issue(commonName: "ticketing", uriSANs: ["spiffe://binario/ticketing"], dnsSANs: [])
      )
    } catch {
      fatalError("cannot create test certificates: \(error)")
    }
  }()

  static func tls(_ leaf: DevLeafCertificate) -> BinarioTLSConfiguration {
    .mutual(
      certificateChain: .pem(leaf.certificatePEM),
      privateKey: .pem(leaf.privateKeyPEM),
      trustRoots: .pem(material.ca.certificatePEM)
    )
  }
}

/// Runs identity (handler + authorization interceptor, as the executable wires them) on the
/// Binario transport with mutual TLS on 127.0.0.1, and hands `body` a way to call it with a
/// chosen client certificate.
func withIdentityOverTLS<Result: Sendable>(
  _ identity: TestIdentity,
  _ body: (_ call: IdentityCaller) async throws -> Result
) async throws -> Result {
  let transport = BinarioServerTransport(
    host: "127.0.0.1",
    port: 0,
    tls: IdentityTestPKI.tls(IdentityTestPKI.material.identity)
  )
  let server = GRPCServer(
    transport: transport,
    services: [IdentityHandler(domain: identity.domain)],
    interceptors: [AuthorizationServerInterceptor(policy: .identity)]
  )
  return try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await server.serve() }
    let port = try await transport.listeningAddress().port!
    do {
      let result = try await body(IdentityCaller(port: port))
      server.beginGracefulShutdown()
      try await group.waitForAll()
      return result
    } catch {
      group.cancelAll()
      throw error
    }
  }
}

/// Opens clients to the test identity with a given certificate.
struct IdentityCaller: Sendable {
  let port: Int

  func callAs<Result: Sendable>(
    _ leaf: DevLeafCertificate,
    _ body: (Binario_Identity_V1_Identity.Client<BinarioClientTransport>) async throws -> Result
  ) async throws -> Result {
    let transport = try BinarioClientTransport(host: "127.0.0.1", port: port, tls: IdentityTestPKI.tls(leaf))
    return try await withGRPCClient(transport: transport) { client in
      try await body(Binario_Identity_V1_Identity.Client(wrapping: client))
    }
  }
}

/// The metadata the gateway forwards for a signed-in caller.
func gatewayMetadata(for tokens: TokenPair) -> Metadata {
  var metadata: Metadata = [:]
  CallerIdentity(userID: tokens.userID, roles: tokens.roles, sessionID: tokens.sessionID).write(to: &metadata)
  return metadata
}

/// The status code of the `RPCError` `body` throws (`nil`, with an issue, if it throws none).
func rpcError(_ body: () async throws -> Void) async -> RPCError? {
  do {
    try await body()
  } catch let error as RPCError {
    return error
  } catch {
    return RPCError(code: .unknown, message: "\(error)")
  }
  return nil
}
