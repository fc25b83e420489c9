import BinarioEcho
import BinarioTransport
import GRPCCore
import NIOCore

/// Runs a GRPCServer on the Binario transport on 127.0.0.1 (ephemeral port) for the duration of
/// `body`, then shuts it down gracefully and waits for it to stop.
func withTestServer<Result: Sendable>(
  services: [any RegistrableRPCService] = [EchoService()],
  tls: BinarioTLSConfiguration = TestPKI.serverTLS,
  configuration: BinarioServerTransport.Configuration = .defaults,
  port: Int = 0,
  _ body: (_ port: Int, _ transport: BinarioServerTransport) async throws -> Result
) async throws -> Result {
  let transport = BinarioServerTransport(host: "127.0.0.1", port: port, tls: tls, configuration: configuration)
  let server = GRPCServer(transport: transport, services: services)
  return try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await server.serve() }
    let port = try await transport.listeningAddress().port!
    do {
      let result = try await body(port, transport)
      server.beginGracefulShutdown()
      try await group.waitForAll()
      return result
    } catch {
      group.cancelAll()
      throw error
    }
  }
}

/// Runs a GRPCClient over the Binario transport to `port` for the duration of `body`.
func withTestClient<Result: Sendable>(
  port: Int,
  tls: BinarioTLSConfiguration = TestPKI.clientTLS(),
  connection: BinarioConnectionConfiguration = .defaults,
  pool: BinarioConnectionPool.Configuration = .defaults,
  _ body: (_ client: GRPCClient<BinarioClientTransport>, _ transport: BinarioClientTransport) async throws -> Result
) async throws -> Result {
  let transport = try BinarioClientTransport(
    host: "127.0.0.1",
    port: port,
    tls: tls,
    connection: connection,
    pool: pool
  )
  return try await withGRPCClient(transport: transport) { client in
    try await body(client, transport)
  }
}
