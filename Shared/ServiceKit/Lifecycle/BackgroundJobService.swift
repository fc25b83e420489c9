import ServiceLifecycle

/// A background job (deliveries, reminders, expiries) as a lifecycle service: `run` goes on
/// beside the server until graceful shutdown, which cancels it. Register it with
/// ``ServiceRunnerContext/addService(_:name:)``.
public struct BackgroundJobService: Service {
  let job: @Sendable () async throws -> Void

  public init(_ job: @escaping @Sendable () async throws -> Void) {
    self.job = job
  }

  public func run() async throws {
    try await cancelWhenGracefulShutdown { try await job() }
  }
}
