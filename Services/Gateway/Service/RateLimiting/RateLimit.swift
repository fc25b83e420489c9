/// A per-client rate limit: a token bucket refilled at `ratePerSecond`, holding at most `burst`.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
  public var ratePerSecond: Double
  public var burst: Double

  public init(ratePerSecond: Double, burst: Double) {
    self.ratePerSecond = ratePerSecond
    self.burst = burst
  }

  /// Parses `RATE` or `RATE/BURST` (calls per second; burst defaults to twice the rate, at least 1).
  public init(parsing text: String) throws(GatewayConfigurationError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    let invalid = GatewayConfigurationError(
      "\"\(text)\" is not a rate limit: write calls per second, optionally /burst (e.g. 50 or 50/100)"
    )
    guard (1 ... 2).contains(parts.count), let rate = Double(parts[0]), rate.isFinite, rate > 0 else { throw invalid }
    var burst = max(1, rate * 2)
    if parts.count == 2 {
      guard let given = Double(parts[1]), given.isFinite, given >= 1 else { throw invalid }
      burst = given
    }
    self.init(ratePerSecond: rate, burst: burst)
  }

  /// The limit a gateway applies when none is configured: generous for a person or an app,
  /// low enough that one client cannot take a service's capacity from the others.
  public static let `default` = RateLimit(ratePerSecond: 50, burst: 100)

  public var description: String { "\(self.ratePerSecond)/s, burst \(self.burst)" }
}
