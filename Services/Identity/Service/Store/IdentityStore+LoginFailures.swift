import Foundation
import GRDB

extension IdentityStore {
  /// The failed sign-ins recorded for `email` (normalized).
  public func loginFailures(email: String) async throws -> LoginFailures {
    try pool.readOnCurrentThread { db in
      guard
        let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT failures, locked_until FROM login_failure WHERE email = ?"), arguments: [email])
      else { return LoginFailures() }
      return LoginFailures(count: row["failures"], lockedUntil: (row["locked_until"] as Double?).map(Date.init(stored:)))
    }
  }

  /// Counts one more failure for `email`; `lock` says, from the new count, until when the address
  /// is locked (`nil`: the previous lock, if any, stays).
  @discardableResult
  public func recordLoginFailure(
    email: String,
    lock: @escaping @Sendable (_ failures: Int) -> Date?
  ) async throws -> LoginFailures {
    try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO login_failure (email, failures, locked_until) VALUES (?, 1, NULL)
          ON CONFLICT (email) DO UPDATE SET failures = failures + 1
          """,
        arguments: [email]
      )
      let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT failures, locked_until FROM login_failure WHERE email = ?"), arguments: [email])!
      let count: Int = row["failures"]
      var lockedUntil = (row["locked_until"] as Double?).map(Date.init(stored:))
      if let newLock = lock(count) {
        lockedUntil = newLock
        try db.execute(
          sql: "UPDATE login_failure SET locked_until = ? WHERE email = ?",
          arguments: [newLock.storedValue, email]
        )
      }
      return LoginFailures(count: count, lockedUntil: lockedUntil)
    }
  }

  public func clearLoginFailures(email: String) async throws {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM login_failure WHERE email = ?", arguments: [email])
    }
  }
}
