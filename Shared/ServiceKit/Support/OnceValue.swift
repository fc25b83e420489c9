import Synchronization

/// A result that is set once and awaited by any number of tasks (a bound address, say).
/// Waiters that are cancelled stop waiting with `CancellationError`.
public final class OnceValue<Value: Sendable>: Sendable {
  private enum State {
    case pending(waiters: [UInt64: CheckedContinuation<Value, any Error>], nextID: UInt64)
    case resolved(Result<Value, any Error>)
  }

  private let state = Mutex(State.pending(waiters: [:], nextID: 0))

  public init() {}

  /// Sets the result and wakes the waiters; later calls are ignored.
  public func resolve(_ result: Result<Value, any Error>) {
    let waiters: [CheckedContinuation<Value, any Error>] = self.state.withLock { state in
      guard case .pending(let waiters, _) = state else { return [] }
      state = .resolved(result)
      return Array(waiters.values)
    }
    for waiter in waiters { waiter.resume(with: result) }
  }

  public var value: Value {
    get async throws {
      let id: UInt64? = self.state.withLock { state in
        guard case .pending(let waiters, let nextID) = state else { return nil }
        state = .pending(waiters: waiters, nextID: nextID + 1)
        return nextID
      }
      guard let id else { return try self.resolvedResult!.get() }
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          let result: Result<Value, any Error>? = self.state.withLock { state in
            switch state {
            case .resolved(let result):
              return result
            case .pending(var waiters, let nextID):
              if Task.isCancelled { return .failure(CancellationError()) }
              waiters[id] = continuation
              state = .pending(waiters: waiters, nextID: nextID)
              return nil
            }
          }
          if let result { continuation.resume(with: result) }
        }
      } onCancel: {
        let waiter: CheckedContinuation<Value, any Error>? = self.state.withLock { state in
          guard case .pending(var waiters, let nextID) = state else { return nil }
          let waiter = waiters.removeValue(forKey: id)
          state = .pending(waiters: waiters, nextID: nextID)
          return waiter
        }
        waiter?.resume(throwing: CancellationError())
      }
    }
  }

  private var resolvedResult: Result<Value, any Error>? {
    self.state.withLock { state in
      if case .resolved(let result) = state { return result }
      return nil
    }
  }
}
