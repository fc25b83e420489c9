import Foundation

/// How repeated failed sign-ins for one address are slowed down.
///
/// Every ``failuresPerLock``-th consecutive failure locks the address: the first time for
/// ``firstLock``, then twice as long each time, up to ``longestLock``. A successful sign-in
/// forgets the failures. Throttling is by address, known or not, so it cannot tell an attacker
/// which addresses have accounts.
public struct LoginThrottle: Sendable, Hashable {
  public var failuresPerLock: Int
  public var firstLock: TimeInterval
  public var longestLock: TimeInterval

  public init(failuresPerLock: Int = 5, firstLock: TimeInterval = 60, longestLock: TimeInterval = 3600) {
    self.failuresPerLock = max(1, failuresPerLock)
    self.firstLock = firstLock
    self.longestLock = longestLock
  }

  /// The lock that follows the `failures`-th consecutive failure at `now`, if that failure locks.
  public func lock(afterFailures failures: Int, at now: Date) -> Date? {
    guard failures > 0, failures % failuresPerLock == 0 else { return nil }
    let lockNumber = failures / failuresPerLock  // 1, 2, 3, ...
    let seconds = min(longestLock, firstLock * pow(2, Double(min(lockNumber - 1, 30))))
    return now.addingTimeInterval(seconds)
  }
}

/// The failed sign-ins recorded for one address.
public struct LoginFailures: Sendable, Hashable {
  public var count: Int
  public var lockedUntil: Date?

  public init(count: Int = 0, lockedUntil: Date? = nil) {
    self.count = count
    self.lockedUntil = lockedUntil
  }
}
