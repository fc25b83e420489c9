/// One client's bucket: `tokens` as of `updated` (monotonic time).
struct TokenBucket: Sendable {
  var tokens: Double
  var updated: Duration

  /// Refills for the time elapsed, then takes one token if there is one.
  mutating func take(at now: Duration, limit: RateLimit) -> Bool {
    self.refill(at: now, limit: limit)
    guard self.tokens >= 1 else { return false }
    self.tokens -= 1
    return true
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
