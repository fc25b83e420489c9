import Synchronization
import Testing

@testable import BinarioTransport

/// The server's open calls as unstructured tasks that keep a task group's guarantees.
@Suite("Call tasks")
struct CallTasksTests {
  /// Tasks that wait until cancelled, counting how many started and how many saw cancellation.
  final class Tally: Sendable {
    let started = Mutex(0)
    let cancelled = Mutex(0)
    let allStarted = AsyncStream<Void>.makeStream()
  }

  @Test("cancelling them all cancels the running ones and every later one; the wait returns once the last has finished")
  func cancelAndWait() async throws {
    let calls = CallTasks()
    let tally = Tally()
    let count = 1_000
    for _ in 0 ..< count {
      calls.start(executorPreference: nil) {
        let started = tally.started.withLock {
          $0 += 1
          return $0
        }
        if started == count { tally.allStarted.continuation.yield() }
        // Waits until cancelled: an AsyncStream's next() returns nil on cancellation (its
        // continuation, kept until then, never yields).
        let (never, continuation) = AsyncStream<Void>.makeStream()
        for await _ in never {}
        continuation.finish()
        tally.cancelled.withLock { $0 += Task.isCancelled ? 1 : 0 }
      }
    }
    var iterator = tally.allStarted.stream.makeAsyncIterator()
    await iterator.next()
    calls.cancelAll()
    calls.start(executorPreference: nil) {
      tally.cancelled.withLock { $0 += Task.isCancelled ? 1 : 0 }
    }
    await calls.waitUntilAllFinished()
    #expect(tally.cancelled.withLock { $0 } == count + 1)
  }

  @Test("the wait returns at once when none runs, and after quick ones that finished meanwhile")
  func quickTasks() async {
    let calls = CallTasks()
    await calls.waitUntilAllFinished()
    let done = Mutex(0)
    for _ in 0 ..< 100 { calls.start(executorPreference: nil) { done.withLock { $0 += 1 } } }
    await calls.waitUntilAllFinished()
    #expect(done.withLock { $0 } == 100)
  }

  @Test("a task inherits the task-locals of where it was started, as a group's child does")
  func taskLocals() async {
    let calls = CallTasks()
    let seen = Mutex<String?>(nil)
    await Self.$label.withValue("listener") {
      calls.start(executorPreference: nil) { seen.withLock { $0 = Self.label } }
    }
    await calls.waitUntilAllFinished()
    #expect(seen.withLock { $0 } == "listener")
  }

  @TaskLocal static var label: String?
}
