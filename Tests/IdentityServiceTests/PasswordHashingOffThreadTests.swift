import Dispatch
import IdentityService
import Synchronization
import Testing

@Suite("Password hashing leaves the caller's thread")
struct PasswordHashingOffThreadTests {
  @Test("inBackground derives on another thread than the caller's executor, and returns its result")
  func derivesElsewhere() async {
    let hasher = PasswordHasher(parameters: .cheapForTests)
    let callerQueue = QueueTaskExecutor()
    let (onCallerBefore, hash, derivedOnCaller) = await withTaskExecutorPreference(callerQueue) {
      let onCallerBefore = callerQueue.isCurrent
      let (hash, derivedOnCaller) = await hasher.inBackground { hasher in
        (hasher.hash("correct horse 42"), callerQueue.isCurrent)
      }
      return (onCallerBefore, hash, derivedOnCaller)
    }
    #expect(onCallerBefore, "the test's own executor should be in effect")
    #expect(!derivedOnCaller)
    #expect(hasher.verify("correct horse 42", against: hash))
  }
}

@Suite("Password hashing runs a bounded number of derivations at once")
struct PasswordHashingLimitTests {
  @Test("no more derivations run at once than the limit; the others wait their turn")
  func boundedConcurrency() async {
    let hasher = PasswordHasher(parameters: .cheapForTests)
    let limit = PasswordHasher.maximumConcurrentDerivations
    let counts = ConcurrencyCounter()
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let gate = DispatchSemaphore(value: 0)

    await withTaskGroup(of: Bool.self) { group in
      for index in 0 ..< (limit * 2 + 1) {
        group.addTask {
          await hasher.inBackground { hasher in
            counts.enter()
            startedContinuation.yield()
            gate.wait()  // held until the test has seen `limit` derivations start
            defer { counts.leave() }
            return hasher.verify("p\(index)", against: hasher.hash("p\(index)"))
          }
        }
      }
      var seen = 0
      for await _ in started {
        seen += 1
        if seen == limit { break }
      }
      for _ in 0 ..< (limit * 2 + 1) { gate.signal() }
      for await verified in group { #expect(verified) }
    }
    #expect(counts.peak <= limit)
    #expect(limit >= 1 && limit <= 4)
  }
}

/// How many are inside at once, and the most there ever were.
private final class ConcurrencyCounter: Sendable {
  private let counts = Mutex((running: 0, peak: 0))

  func enter() {
    self.counts.withLock {
      $0.running += 1
      $0.peak = max($0.peak, $0.running)
    }
  }
  func leave() { self.counts.withLock { $0.running -= 1 } }
  var peak: Int { self.counts.withLock { $0.peak } }
}

/// A task executor on a serial Dispatch queue that can tell whether code runs on it, standing
/// in for a connection's event loop.
private final class QueueTaskExecutor: TaskExecutor {
  private static let key = DispatchSpecificKey<ObjectIdentifier>()
  private let queue = DispatchQueue(label: "binario.test.caller")

  init() {
    self.queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
  }

  var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    self.queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
