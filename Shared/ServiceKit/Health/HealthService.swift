import BinarioProto
import GRPCCore

/// The standard `grpc.health.v1.Health` service over a ``HealthStatusProvider``.
///
/// `Check` answers a known service's status and `NOT_FOUND` for an unknown one. `Watch` sends the
/// current status at once (`SERVICE_UNKNOWN` for an unknown name) and then every change, until the
/// caller cancels or the provider shuts down; then the call ends `OK`.
public struct HealthService: Grpc_Health_V1_Health.SimpleServiceProtocol {
  public let provider: HealthStatusProvider

  public init(provider: HealthStatusProvider) {
    self.provider = provider
  }

  public func check(
    request: Grpc_Health_V1_HealthCheckRequest,
    context: ServerContext
  ) async throws -> Grpc_Health_V1_HealthCheckResponse {
    guard let status = self.provider.status(forService: request.service) else {
      throw RPCError(code: .notFound, message: "no health status for service \"\(request.service)\"")
    }
    return .with { $0.status = HealthStatusProvider.servingStatus(status) }
  }

  public func watch(
    request: Grpc_Health_V1_HealthCheckRequest,
    response: RPCWriter<Grpc_Health_V1_HealthCheckResponse>,
    context: ServerContext
  ) async throws {
    let statuses = self.provider.watch(service: request.service)
    try await withThrowingTaskGroup(of: Void.self) { group in
      // The transport signals a caller's cancel through the context, not by cancelling this task.
      group.addTask {
        try await context.cancellation.cancelled
      }
      group.addTask {
        for await status in statuses {
          try await response.write(.with { $0.status = status })
        }
      }
      // Whichever ends first ends the watch; the other is cancelled and its error dropped.
      _ = try await group.next()
      group.cancelAll()
    }
  }
}
