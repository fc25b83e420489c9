import ServiceLifecycle

/// A service process ready to run, as
/// ``ServiceRunner/assemble(configuration:additionalSettings:logger:metricsRegistry:transport:handlesSignals:services:)``
/// builds it.
public struct AssembledService: Sendable {
  /// Runs the `/metrics` endpoint, added services and the gRPC server; shuts them down on the
  /// SIGTERM/SIGINT (when handled) or ``triggerGracefulShutdown()``.
  public let serviceGroup: ServiceGroup
  public let health: HealthStatusProvider
  /// `nil` when metrics are off.
  public let metricsServer: MetricsHTTPServer?
  let reportListeningAddress: (@Sendable () async throws -> String)?

  /// Where the gRPC server listens (`127.0.0.1:7001`), once the transport has bound; `nil` if the
  /// transport factory cannot tell. Throws if binding failed.
  public func listeningAddress() async throws -> String? {
    try await self.reportListeningAddress?()
  }

  /// Runs until every member has stopped.
  public func run() async throws {
    try await self.serviceGroup.run()
  }

  public func triggerGracefulShutdown() async {
    await self.serviceGroup.triggerGracefulShutdown()
  }
}
