import BinarioDomain
import BinarioServiceKit
import BinarioTestSupport
import Logging
import Synchronization
import Testing

struct PassFailed: Error {}

@Suite("PeriodicJob: passes, waits, retries and wake-ups on an injected timer")
struct PeriodicJobTests {
  let logger = Logger(label: "test")

  @Test("it waits its interval, or less when a pass says when the next is due")
  func waits() async throws {
    let timer = StepTimer()
    let (passes, passed) = AsyncStream<Int>.makeStream()
    let count = Mutex(0)
    let job = PeriodicJob("test", every: .seconds(10), timer: timer, logger: logger) {
      let number = count.withLock {
        $0 += 1
        return $0
      }
      passed.yield(number)
      return number == 2 ? .seconds(2) : (number == 3 ? .seconds(60) : nil)
    }
    let running = Task { await job.runPasses() }
    var passIterator = passes.makeAsyncIterator()
    var requestIterator = timer.requests.makeAsyncIterator()
    #expect(await passIterator.next() == 1)
    #expect(await requestIterator.next() == .seconds(10))
    timer.fire()
    #expect(await passIterator.next() == 2)
    #expect(await requestIterator.next() == .seconds(2))
    timer.fire()
    #expect(await passIterator.next() == 3)
    #expect(await requestIterator.next() == .seconds(10))  // never longer than the interval
    running.cancel()
    await running.value
  }

  @Test("a failed pass is tried again after the backoff, which a success resets")
  func retries() async throws {
    let timer = StepTimer()
    let count = Mutex(0)
    let job = PeriodicJob(
      "test",
      every: .seconds(10),
      retry: Backoff(initial: .seconds(1), maximum: .seconds(60), multiplier: 2, jitter: 0),
      timer: timer,
      logger: logger
    ) {
      let number = count.withLock {
        $0 += 1
        return $0
      }
      if number <= 2 || number == 4 { throw PassFailed() }
      return nil
    }
    let running = Task { await job.runPasses() }
    var requests = timer.requests.makeAsyncIterator()
    var waits: [Duration?] = []
    for _ in 1 ... 5 {
      waits.append(await requests.next())
      timer.fire()
    }
    #expect(waits == [.seconds(1), .seconds(2), .seconds(10), .seconds(1), .seconds(10)])
    running.cancel()
    await running.value
  }

  @Test("a wake-up ends the wait at once, and when the wake-ups finish, so does the job")
  func wakeUps() async throws {
    let timer = StepTimer()
    let (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let (passes, passed) = AsyncStream<Void>.makeStream()
    let job = PeriodicJob("test", every: .seconds(3600), wakeUps: wakeUps, timer: timer, logger: logger) {
      passed.yield()
      return nil
    }
    let running = Task { await job.runPasses() }
    var passIterator = passes.makeAsyncIterator()
    var requests = timer.requests.makeAsyncIterator()
    await passIterator.next()
    #expect(await requests.next() == .seconds(3600))
    wake.yield()  // the timer never fires
    await passIterator.next()
    #expect(await requests.next() == .seconds(3600))
    wake.finish()
    await running.value  // returns without a cancellation
  }
}
