import Dispatch
import IdentityService
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
