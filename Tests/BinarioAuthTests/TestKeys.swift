import BinarioAuth
import Crypto
import Foundation
import Synchronization

/// A clock the test moves by hand.
final class TestClock: Sendable {
  private let current: Mutex<Date>

  init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.current = Mutex(start)
  }

  var now: Date { self.current.withLock { $0 } }

  func advance(by seconds: TimeInterval) {
    self.current.withLock { $0 += seconds }
  }

  var reader: @Sendable () -> Date {
    { self.now }
  }
}

func makeClaims(
  at now: Date,
  lifetime: TimeInterval = 300,
  roles: [String] = ["passenger"],
  issuer: String = AccessTokenClaims.issuerName
) -> AccessTokenClaims {
  AccessTokenClaims(
    userID: "user-1",
    roles: roles,
    sessionID: "session-1",
    tokenID: "token-1",
    issuedAt: now,
    expiresAt: now.addingTimeInterval(lifetime),
    issuer: issuer
  )
}
