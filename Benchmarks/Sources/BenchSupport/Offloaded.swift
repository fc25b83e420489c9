import Dispatch

/// Runs blocking work (pipe I/O) off Swift concurrency's threads, which may be event loops.
public func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async {
      continuation.resume(with: Result { try work() })
    }
  }
}
