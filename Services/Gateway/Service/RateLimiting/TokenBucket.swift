/// One client's bucket: `tokens` as of `updated` (monotonic time).
struct TokenBucket: Sendable {
  var tokens: Double
  var updated: Duration

  /// Refills for the time elapsed, then takes one token if there is one: `nil` when it took
  /// one, else how long until the next token.
  mutating func take(at now: Duration, limit: RateLimit) -> Duration? {
    self.refill(at: now, limit: limit)
    guard self.tokens >= 1 else { return .seconds((1 - self.tokens) / limit.ratePerSecond) }
    self.tokens -= 1
    return nil
  }

  mutating func refill(at now: Duration, limit: RateLimit) {
    let elapsed = now - self.updated
    if elapsed > .zero {
      let (seconds, attoseconds) = elapsed.components
      let elapsedSeconds = Double(seconds) + Double(attoseconds) / 1e18
      self.tokens = min(limit.burst, self.tokens + elapsedSeconds * limit.ratePerSecond)
      self.updated = now
    }
  }
}
