import GRPCCore
import GRPCInProcessTransport

/// Runs a `GRPCServer` over GRPCCore's in-process transport and hands `body` a client to it.
func withInProcessServer<Result: Sendable>(
  services: [any RegistrableRPCService],
  interceptors: [any ServerInterceptor] = [],
  _ body: (GRPCClient<InProcessTransport.Client>) async throws -> Result
) async throws -> Result {
  let transport = InProcessTransport()
  return try await withGRPCServer(transport: transport.server, services: services, interceptors: interceptors) { _ in
    try await withGRPCClient(transport: transport.client) { client in
      try await body(client)
    }
  }
}
