import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Runs async code from a synchronous `main`, optionally on NIO's event loops.
///
/// `NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()`
/// only works before the first task starts, so commands stay synchronous, install the executor
/// here, and then start their work with `Task.detached` (a plain `Task {}` from `main` would
/// inherit the main actor, which nothing drains while `main` blocks).
enum AsyncMain {
  struct ExecutorInstallationFailed: Error, CustomStringConvertible {
    var description: String {
      "could not install NIO's event loops as the global executor (a task had already started)"
    }
  }

  static func run(
    installingNIOExecutor: Bool,
    _ body: @escaping @Sendable () async throws -> Void
  ) throws {
    if installingNIOExecutor {
      guard NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() else {
        throw ExecutorInstallationFailed()
      }
    }
    let done = DispatchSemaphore(value: 0)
    let outcome = NIOLockedValueBox<Result<Void, any Error>>(.success(()))
    Task.detached {
      do {
        try await body()
      } catch {
        outcome.withLockedValue { $0 = .failure(error) }
      }
      done.signal()
    }
    done.wait()
    try outcome.withLockedValue { $0 }.get()
  }

  /// Runs blocking work (pipe I/O) off Swift concurrency's threads, which may be event loops.
  static func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try work() })
      }
    }
  }
}
