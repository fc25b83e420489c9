import ArgumentParser
import BinarioConcurrencyHook
import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Runs a process's async work with NIO's event loops as Swift concurrency's global executor.
///
/// A call's bytes arrive on an event loop; by default its handler then runs on one of Swift
/// concurrency's own threads, and its answer goes back to the loop: two thread wake-ups per call
/// at least, each of which costs more than the call's bytes. With the event loops as the global
/// executor, a task that an event loop resumes runs on that loop, so a call is read, handled and
/// answered on one thread. Work that blocks for long must then leave the loops (identity runs
/// its password hashing on Dispatch, for instance).
///
/// Installing works only before the first task starts. So the process stays synchronous until it
/// is installed, and then starts its work with `Task.detached` (a plain `Task {}` from `main`
/// would inherit the main actor, which nothing drains while `main` waits).
public enum EventLoopConcurrency {
  /// Installs NIO's singleton event loop group as the global executor (when `installing`), runs
  /// `body` and waits for it; rethrows what it threw.
  ///
  /// - Throws: ``InstallationFailed`` when a task already ran, or the hook is unavailable.
  public static func run(
    installing: Bool = true,
    _ body: @escaping @Sendable () async throws -> Void
  ) throws {
    if installing {
      guard NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() || installThroughLinkedHook()
      else {
        throw InstallationFailed()
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

  /// The Swift runtime's hook for enqueueing global jobs: `(job, original) -> Void`.
  private typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, @convention(thin) (UnownedJob) -> Void) -> Void

  /// What NIO's installer does, through the hook's address as linked rather than `dlsym`, which
  /// cannot see it when the Swift runtime is linked statically (see `ConcurrencyHook.h`). Jobs go
  /// to the singleton group's current loop when enqueued from one (`any()` prefers it), else to
  /// the next loop. Returns false if a hook is already installed.
  private static func installThroughLinkedHook() -> Bool {
    let hookAddress = binario_swift_task_enqueueGlobal_hook_address()
    guard hookAddress.pointee == nil else { return false }
    let enqueueOnEventLoop: EnqueueGlobalHook = { job, _ in
      MultiThreadedEventLoopGroup.singleton.any().enqueue(ExecutorJob(job))
    }
    // A thin function is one code pointer, as the runtime expects. A plain store: this runs
    // before any task exists, and the runtime reads the hook only on threads started later.
    hookAddress.pointee = unsafeBitCast(enqueueOnEventLoop, to: UnsafeMutableRawPointer.self)
    return true
  }

  /// NIO's event loops could not become the global executor.
  public struct InstallationFailed: Error, CustomStringConvertible {
    public var description: String {
      "could not install NIO's event loops as Swift concurrency's global executor (another hook was installed first)"
    }
  }
}

/// A command whose async work runs on NIO's event loops (see ``EventLoopConcurrency``).
///
/// Implement ``runOnEventLoops()`` instead of `run()`; the command itself stays synchronous so
/// that the executor is installed before any task starts.
public protocol EventLoopCommand: ParsableCommand, Sendable {
  func runOnEventLoops() async throws
}

extension EventLoopCommand {
  public func run() throws {
    try EventLoopConcurrency.run { try await self.runOnEventLoops() }
  }
}
