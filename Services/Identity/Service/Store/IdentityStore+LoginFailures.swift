import Crypto
import Foundation
import GRDB

extension IdentityStore {
  /// The table's key for an address (or a phone code's throttle key): its SHA-256, so the table
  /// never holds an address in clear; a sign-in tried with an address after its account was
  /// deleted leaves none behind (docs/data-map.md).
  public static func throttleKey(_ subject: String) -> String {
    SHA256.hash(data: Data(subject.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// The failed sign-ins recorded for `email` (normalized).
  public func loginFailures(email: String) async throws -> LoginFailures {
    try pool.readOnCurrentThread { db in
      guard
        let row = try Row.fetchOne(
          db.cachedStatement(sql: "SELECT failures, locked_until FROM login_failure WHERE email = ?"),
          arguments: [Self.throttleKey(email)]
        )
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
    let key = Self.throttleKey(email)
    return try await pool.write { db in
      try db.execute(
        sql: """
          INSERT INTO login_failure (email, failures, locked_until) VALUES (?, 1, NULL)
          ON CONFLICT (email) DO UPDATE SET failures = failures + 1
          """,
        arguments: [key]
      )
      let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT failures, locked_until FROM login_failure WHERE email = ?"), arguments: [key])!
      let count: Int = row["failures"]
      var lockedUntil = (row["locked_until"] as Double?).map(Date.init(stored:))
      if let newLock = lock(count) {
        lockedUntil = newLock
        try db.execute(
          sql: "UPDATE login_failure SET locked_until = ? WHERE email = ?",
          arguments: [newLock.storedValue, key]
        )
      }
      return LoginFailures(count: count, lockedUntil: lockedUntil)
    }
  }

  public func clearLoginFailures(email: String) async throws {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM login_failure WHERE email = ?", arguments: [Self.throttleKey(email)])
    }
  }
}
