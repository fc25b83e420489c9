import BinarioDomain
import Foundation
import Testing

/// The test clock: moved ahead, it wakes whoever waits on it; it never goes back.
@Suite("An adjustable clock")
struct AdjustableClockTests {
  @Test("a wait of an hour ends as soon as the clock is moved an hour ahead; a short wait ends by itself")
  func wakesWaiters() async throws {
    let clock = AdjustableClock()
    let timer = AdjustableJobTimer(clock: clock)
    let started = ContinuousClock.now
    let (ended, ending) = AsyncStream<Void>.makeStream()
    let target = clock.now().addingTimeInterval(3600)
    let waiter = Task {
      try await timer.sleep(until: target)
      ending.yield()
    }
    // Moved by half: still waiting; by the rest: done.
    clock.set(offset: 1800)
    clock.set(offset: 3600)
    var iterator = ended.makeAsyncIterator()
    _ = await iterator.next()
    try await waiter.value
    #expect(ContinuousClock.now - started < .seconds(60))
    try await timer.sleep(for: .milliseconds(20))
    #expect(clock.now().timeIntervalSince(Date()) > 3599)
  }

  @Test("it never goes back")
  func neverBack() {
    let clock = AdjustableClock(offset: 100)
    clock.set(offset: 50)
    #expect(clock.currentOffset == 100)
  }
}
