import Foundation

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
