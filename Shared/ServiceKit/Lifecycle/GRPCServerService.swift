import GRPCCore
import Logging
import ServiceLifecycle

/// Runs a `GRPCServer` as a lifecycle `Service`.
///
/// On graceful shutdown it marks every health status `NOT_SERVING` (ending health watches), asks
/// the server to stop taking calls and let open ones finish, and cancels the server if they are
/// still running when the grace period is over. Cancelling `run()` cancels the server at once.
public struct GRPCServerService<Transport: ServerTransport>: Service {
  private let server: GRPCServer<Transport>
  private let gracePeriod: Duration?
  private let health: HealthStatusProvider?
  private let state: ListenerState?
  private let onShutdown: @Sendable () -> Void
  private let logger: Logger
  private let listeningAddress: (@Sendable () async throws -> String)?

  /// - Parameters:
  ///   - gracePeriod: How long open calls may run after graceful shutdown begins; `nil`: no limit.
  ///   - health: Statuses to turn `NOT_SERVING` when shutdown begins.
  ///   - state: Follows the server: listening once `listeningAddress` reports (at once without
  ///     one), draining when shutdown begins, closed when it stopped.
  ///   - onShutdown: Runs when shutdown begins, before the server waits for open calls.
  ///   - listeningAddress: Reports where the transport listens, once bound; it is logged.
  public init(
    server: GRPCServer<Transport>,
    gracePeriod: Duration?,
    health: HealthStatusProvider? = nil,
    state: ListenerState? = nil,
    onShutdown: @escaping @Sendable () -> Void = {},
    logger: Logger,
    listeningAddress: (@Sendable () async throws -> String)? = nil
  ) {
    self.onShutdown = onShutdown
    self.server = server
    self.gracePeriod = gracePeriod
    self.health = health
    self.state = state
    self.logger = logger
    self.listeningAddress = listeningAddress
  }

  private enum Event: Sendable {
    case serverStopped(Result<Void, any Error>)
    case gracePeriodExpired
    case addressReported
  }

  public func run() async throws {
    let (server, health, logger, gracePeriod, state) = (self.server, self.health, self.logger, self.gracePeriod, self.state)
    let onShutdown = self.onShutdown
    if self.listeningAddress == nil { state?.advance(to: .listening) }
    defer { state?.advance(to: .closed) }
    try await withThrowingTaskGroup(of: Event.self) { group in
      group.addTask {
        do {
          try await server.serve()
          return .serverStopped(.success(()))
        } catch {
          return .serverStopped(.failure(error))
        }
      }

      group.addTask {
        try await gracefulShutdown()
        state?.advance(to: .draining)
        health?.enterShutdown()
        onShutdown()
        logger.info(
          "graceful shutdown: no new calls; open calls may finish",
          metadata: ["grace-period": "\(gracePeriod.map { "\($0)" } ?? "unlimited")"]
        )
        server.beginGracefulShutdown()
        guard let gracePeriod else {
          // No limit: wait for the server, however long it takes (this task is cancelled then).
          while true { try await Task.sleep(for: .seconds(3600)) }
        }
        try await Task.sleep(for: gracePeriod)
        return .gracePeriodExpired
      }

      if let listeningAddress = self.listeningAddress {
        group.addTask {
          do {
            let address = try await Self.cancellable(listeningAddress)
            state?.advance(to: .listening)
            logger.notice("listening", metadata: ["address": "\(address)"])
          } catch {
            // A bind failure surfaces from `serve()`; this is only the report.
            logger.debug("no listening address to report", metadata: ["error": "\(error)"])
          }
          return .addressReported
        }
      }

      var forced = false
      while let event = try await group.next() {
        switch event {
        case .addressReported:
          continue
        case .gracePeriodExpired:
          logger.warning("grace period over: cancelling the calls still open")
          forced = true
          group.cancelAll()
        case .serverStopped(let result):
          group.cancelAll()
          if case .failure(let error) = result, !forced, !Self.stoppedBeforeStarting(error) {
            throw error
          }
          logger.info("gRPC server stopped")
          return
        }
      }
    }
  }

  /// Shutdown that begins before `serve()` is called makes it throw `serverIsStopped`: not a failure.
  private static func stoppedBeforeStarting(_ error: any Error) -> Bool {
    guard let error = error as? RuntimeError else { return false }
    return error.code == .serverIsStopped && Task.isShuttingDownGracefully
  }

  /// Runs `operation` so that cancelling the caller ends the wait even if `operation` ignores
  /// cancellation (a transport's address report may wait for a bind that never comes, when the
  /// server is stopped before it listens). `operation` is then left to finish on its own.
  private static func cancellable(_ operation: @escaping @Sendable () async throws -> String) async throws -> String {
    let result = OnceValue<String>()
    let task = Task {
      do {
        result.resolve(.success(try await operation()))
      } catch {
        result.resolve(.failure(error))
      }
    }
    return try await withTaskCancellationHandler {
      try await result.value
    } onCancel: {
      task.cancel()
    }
  }
}
