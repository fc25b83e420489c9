/// How long to wait before trying again after failures, the one rule the whole suite retries by
/// (connections to a peer, the gateway's calls to identity, telemetry's open-data fetches): the
/// `initial` delay after the first failure, `multiplier` times longer after each further one, at
/// most `maximum`, spread by ± `jitter` (a fraction) so that many clients that failed together
/// do not come back together.
public struct Backoff: Sendable, Hashable {
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

  /// The delay before the next attempt after `failures` consecutive failures (1 or more; fewer
  /// counts as 1).
  public func delay(afterFailures failures: Int) -> Duration {
    var random = SystemRandomNumberGenerator()
    return self.delay(afterFailures: failures, using: &random)
  }

  /// The same, its jitter drawn from `random` (a test's ``SeededGenerator``).
  public func delay(afterFailures failures: Int, using random: inout some RandomNumberGenerator) -> Duration {
    var delay = self.initial
    for _ in 1 ..< max(1, failures) {
      delay = delay * self.multiplier
      if delay >= self.maximum { break }
    }
    delay = min(delay, self.maximum)
    let factor = self.jitter > 0 ? Double.random(in: (1 - self.jitter) ... (1 + self.jitter), using: &random) : 1
    return delay * factor
  }
}
