import Foundation
import Synchronization

/// Where a service's domain logic reads the time. Production uses ``SystemClock``; tests inject a
/// clock they move by hand, so expiry, throttling, reminders and token lifetimes are tested
/// without waiting.
public protocol DomainClock: Sendable {
  func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: DomainClock {
  public init() {}

  public func now() -> Date {
    Date()
  }
}

/// A clock moved by hand: what tests (and tools replaying a day) inject.
public final class ManualClock: DomainClock {
  private let current: Mutex<Date>

  public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.current = Mutex(start)
  }

  public func now() -> Date {
    self.current.withLock { $0 }
  }

  public func advance(by seconds: TimeInterval) {
    self.current.withLock { $0 += seconds }
  }

  public func set(_ date: Date) {
    self.current.withLock { $0 = date }
  }
}
