import Synchronization

/// The tasks of a server's open calls, each started, finished and cancelled in constant time.
///
/// Why not a task group: Swift's runtime keeps a group's children in a linked list that it
/// walks to add and to remove one, so with a thousand long-lived streams open (a thousand taxis'
/// driver streams) every short call paid two walks of the list: `TaskGroup::removeChildTask` was
/// 7.6% of dispatch's CPU in dispatch-bench. These are unstructured tasks that keep what the
/// server needs of a group: they are cancelled with the listener, and ``waitUntilAllFinished()``
/// returns only once the last has finished.
final class CallTasks: Sendable {
  private struct State {
    var running: [UInt64: Task<Void, Never>] = [:]
    var nextID: UInt64 = 0
    var cancelled = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Mutex(State())

  /// Runs `body` as a new task preferring `executor`; cancelled at once when ``cancelAll()``
  /// already ran.
  func start(executorPreference executor: (any TaskExecutor)?, _ body: @escaping @Sendable () async -> Void) {
    // Created under the lock: a task that finishes at once waits for its own registration
    // before it removes it.
    state.withLock { state in
      let id = state.nextID
      state.nextID += 1
      let task = Task(executorPreference: executor) {
        await body()
        self.finished(id)
      }
      state.running[id] = task
      if state.cancelled { task.cancel() }
    }
  }

  /// Cancels every running task, and every task started later.
  func cancelAll() {
    let running = state.withLock { state in
      state.cancelled = true
      return Array(state.running.values)
    }
    for task in running { task.cancel() }
  }

  /// Returns once no task is running. Called once, after the last ``start(executorPreference:_:)``.
  func waitUntilAllFinished() async {
    await withCheckedContinuation { continuation in
      let done = state.withLock { state in
        guard !state.running.isEmpty else { return true }
        state.waiter = continuation
        return false
      }
      if done { continuation.resume() }
    }
  }

  private func finished(_ id: UInt64) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.running[id] = nil
      guard state.running.isEmpty else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}
