/// Exponential backoff with jitter between retries of the gateway's own calls to identity.
public struct RetryBackoff: Sendable, Hashable {
  public var initial: Duration
  public var maximum: Duration
  public var multiplier: Double
  public var jitter: Double

  public init(initial: Duration = .milliseconds(200), maximum: Duration = .seconds(10), multiplier: Double = 2, jitter: Double = 0.2) {
    self.initial = initial
    self.maximum = maximum
    self.multiplier = multiplier
    self.jitter = jitter
  }

  /// The delay before the next attempt after `failures` consecutive failures (1 or more).
  public func delay(afterFailures failures: Int) -> Duration {
    var delay = self.initial
    for _ in 1 ..< max(1, failures) {
      delay = delay * self.multiplier
      if delay >= self.maximum { break }
    }
    delay = min(delay, self.maximum)
    let factor = self.jitter > 0 ? Double.random(in: (1 - self.jitter) ... (1 + self.jitter)) : 1
    return delay * factor
  }
}
