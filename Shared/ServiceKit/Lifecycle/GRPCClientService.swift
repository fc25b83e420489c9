import GRPCCore
import ServiceLifecycle

/// Runs a `GRPCClient`'s connections as a lifecycle `Service`: a client only works while
/// `runConnections()` runs. On graceful shutdown the client finishes its open calls and stops.
///
/// Add it with ``ServiceRunnerContext/addService(_:name:)``: the runner shuts it down after the
/// gRPC server has drained, so handlers can use the client to the end.
public struct GRPCClientService<Transport: ClientTransport>: Service {
  public let client: GRPCClient<Transport>

  public init(client: GRPCClient<Transport>) {
    self.client = client
  }

  public func run() async throws {
    let client = self.client
    try await withGracefulShutdownHandler {
      try await client.runConnections()
    } onGracefulShutdown: {
      client.beginGracefulShutdown()
    }
  }
}
