import BinarioDomain
import Foundation
import IdentityService
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: DomainClock {
  private let current: Mutex<Date>

  init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.current = Mutex(start)
  }

  func now() -> Date {
    self.current.withLock { $0 }
  }

  func advance(by seconds: TimeInterval) {
    self.current.withLock { $0 += seconds }
  }
}
