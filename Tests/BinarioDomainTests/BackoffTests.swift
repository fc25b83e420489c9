import BinarioDomain
import Testing

@Suite("Backoff")
struct BackoffTests {
  @Test("the initial delay, then multiplied after each further failure, never past the maximum")
  func growsToItsMaximum() {
    let backoff = Backoff(initial: .seconds(5), maximum: .seconds(60), multiplier: 2, jitter: 0)
    #expect([0, 1, 2, 3, 4, 5, 100].map { backoff.delay(afterFailures: $0) } == [5, 5, 10, 20, 40, 60, 60].map { .seconds($0) })
  }

  @Test("jitter spreads each delay within ± its fraction, the same way for the same seed")
  func jitterStaysWithinItsBand() {
    let backoff = Backoff(initial: .seconds(1), maximum: .seconds(8), multiplier: 2, jitter: 0.2)
    var random = SeededGenerator(state: 7)
    var again = SeededGenerator(state: 7)
    for failures in 1 ... 50 {
      let delay = backoff.delay(afterFailures: failures, using: &random)
      let middle = min(Duration.seconds(1 << min(failures - 1, 10)), .seconds(8))
      #expect(delay >= middle * 0.8 && delay <= middle * 1.2, "after \(failures) failures: \(delay)")
      #expect(delay == backoff.delay(afterFailures: failures, using: &again))
    }
  }
}
