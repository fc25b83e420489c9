import ServiceLifecycle

/// Runs a context's ``ServiceRunnerContext/onGracefulShutdown(_:)`` actions when graceful
/// shutdown reaches it, for processes whose server is not a GRPCCore server (there,
/// ``GRPCServerService`` runs them as it stops taking calls). Placed last in the service group,
/// it is shut down first, so the actions run before the server's drain begins.
struct GracefulShutdownActions: Service {
  let context: ServiceRunnerContext

  func run() async throws {
    do {
      try await gracefulShutdown()
    } catch is CancellationError {
      return  // cancelled, not shut down gracefully: nothing to drain
    }
    self.context.runGracefulShutdownActions()
  }
}
