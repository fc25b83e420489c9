import Foundation

/// Where identity's domain logic reads the time. Production uses ``SystemClock``; tests inject a
/// clock they move by hand, so expiry, throttling and token lifetimes are tested without waiting.
public protocol IdentityClock: Sendable {
  func now() -> Date
}

/// The system's wall clock.
public struct SystemClock: IdentityClock {
  public init() {}

  public func now() -> Date {
    Date()
  }
}
