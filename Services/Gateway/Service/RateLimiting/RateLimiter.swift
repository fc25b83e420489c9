import Synchronization

/// Per-client token buckets: the key is the user id of a signed-in caller, the IP address of a
/// signed-out one. Buckets that have refilled completely are dropped now and then, so memory
/// follows the number of recently active clients.
public final class RateLimiter: Sendable {
  public let limit: RateLimit
  private let clock: any GatewayClock
  private let buckets = Mutex<[String: TokenBucket]>([:])
  /// The count of buckets above which full ones are dropped on the next insert.
  private let pruneThreshold: Int

  public init(limit: RateLimit, clock: any GatewayClock, pruneThreshold: Int = 10_000) {
    self.limit = limit
    self.clock = clock
    self.pruneThreshold = pruneThreshold
  }

  /// Takes a token from `key`'s bucket; `false` when it is empty.
  public func allow(_ key: String) -> Bool {
    self.take(key) == nil
  }

  /// Takes a token from `key`'s bucket: `nil` when it took one, else how long until the bucket
  /// holds one again (the retry hint a refusal carries).
  public func take(_ key: String) -> Duration? {
    let now = self.clock.uptime
    let limit = self.limit
    return self.buckets.withLock { buckets in
      if buckets[key] == nil {
        if buckets.count >= self.pruneThreshold { Self.prune(&buckets, at: now, limit: limit) }
        buckets[key] = TokenBucket(tokens: limit.burst, updated: now)
      }
      return buckets[key]!.take(at: now, limit: limit)
    }
  }

  private static func prune(_ buckets: inout [String: TokenBucket], at now: Duration, limit: RateLimit) {
    buckets = buckets.filter { _, bucket in
      var bucket = bucket
      bucket.refill(at: now, limit: limit)
      return bucket.tokens < limit.burst
    }
  }

  /// How many buckets are kept.
  public var bucketCount: Int { self.buckets.withLock { $0.count } }
}
