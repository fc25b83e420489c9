import Foundation
import GRDB

/// What trading in a refresh token came to.
public enum RefreshRotation: Sendable, Hashable {
  /// The token was good: it is now used, and the new one is stored.
  case rotated(accountID: String, sessionID: String)
  /// The token had been traded in before: someone replays it. The session is still open (the
  /// domain revokes it).
  case reused(accountID: String, sessionID: String)
  /// Expired, or its session has ended.
  case expired
  case revoked
  /// No such token.
  case unknown
}

extension IdentityStore {
  /// A new session with its first refresh token.
  public func createSession(
    id: String,
    accountID: String,
    refreshTokenHash: String,
    refreshTokenExpiresAt: Date,
    at now: Date
  ) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "INSERT INTO session (id, account_id, created_at) VALUES (?, ?, ?)",
        arguments: [id, accountID, now.storedValue]
      )
      try Self.insertRefreshToken(db, hash: refreshTokenHash, sessionID: id, expiresAt: refreshTokenExpiresAt, now: now)
    }
  }

  /// Trades the refresh token hashed `oldHash` for a new one, in one transaction: a token is
  /// rotated at most once, however many calls race with it.
  ///
  /// A token already traded is traded again when its answer was evidently lost: within
  /// `replayGrace` of its trade, and while no token issued after it has been used (a tab closed
  /// or reloaded while its refresh was on the way, so the browser never stored the new token).
  /// The unused successors are retired then, so at most one token of the session stays
  /// tradable: a thief's copy and the owner's meet at the next trade, which ends the session.
  public func rotateRefreshToken(
    oldHash: String,
    newHash: String,
    newExpiresAt: Date,
    replayGrace: TimeInterval,
    at now: Date
  ) async throws -> RefreshRotation {
    try await pool.write { db in
      guard
        let row = try Row.fetchOne(
          db.cachedStatement(
            sql: """
              SELECT t.session_id, t.expires_at, t.used_at, t.retired_at, s.account_id, s.revoked_at
              FROM refresh_token t JOIN session s ON s.id = t.session_id
              WHERE t.token_hash = ?
              """
          ),
          arguments: [oldHash]
        )
      else { return .unknown }
      let sessionID: String = row["session_id"]
      let accountID: String = row["account_id"]
      if (row["revoked_at"] as Double?) != nil { return .revoked }
      if Date(stored: row["expires_at"]) <= now { return .expired }
      if (row["retired_at"] as Double?) != nil { return .reused(accountID: accountID, sessionID: sessionID) }
      if let usedAt = row["used_at"] as Double? {
        let successorUsed =
          try Bool.fetchOne(
            db.cachedStatement(
              sql: """
                SELECT EXISTS (SELECT 1 FROM refresh_token
                WHERE session_id = ? AND created_at >= ? AND token_hash != ? AND used_at IS NOT NULL)
                """
            ),
            arguments: [sessionID, usedAt, oldHash]
          ) ?? true
        guard !successorUsed, Date(stored: usedAt) > now.addingTimeInterval(-replayGrace) else {
          return .reused(accountID: accountID, sessionID: sessionID)
        }
        try db.execute(
          sql: """
            UPDATE refresh_token SET retired_at = ?
            WHERE session_id = ? AND created_at >= ? AND token_hash != ? AND used_at IS NULL AND retired_at IS NULL
            """,
          arguments: [now.storedValue, sessionID, usedAt, oldHash]
        )
      } else {
        try db.execute(
          sql: "UPDATE refresh_token SET used_at = ? WHERE token_hash = ?",
          arguments: [now.storedValue, oldHash]
        )
      }
      try Self.insertRefreshToken(db, hash: newHash, sessionID: sessionID, expiresAt: newExpiresAt, now: now)
      return .rotated(accountID: accountID, sessionID: sessionID)
    }
  }

  /// Ends one session of `accountID`. Returns whether an open session ended.
  public func revokeSession(id: String, accountID: String, at now: Date) async throws -> Bool {
    try await pool.write { db in
      let open =
        try Bool.fetchOne(
          db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM session WHERE id = ? AND account_id = ? AND revoked_at IS NULL)"),
          arguments: [id, accountID]
        ) ?? false
      guard open else { return false }
      try Self.markRevoked(db, sessionIDs: [id], at: now)
      return true
    }
  }

  /// Ends every open session of `accountID` but `keep`. Returns those ended.
  public func revokeSessions(accountID: String, except keep: String? = nil, at now: Date) async throws -> [String] {
    try await pool.write { db in try Self.revokeSessions(db, accountID: accountID, except: keep, at: now) }
  }

  /// Whether the session exists and has not ended.
  public func isSessionOpen(id: String) async throws -> Bool {
    try pool.readOnCurrentThread { db in
      try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM session WHERE id = ? AND revoked_at IS NULL)"), arguments: [id])
        ?? false
    }
  }

  /// Sessions revoked at or after `since`, oldest first.
  public func revocations(since: Date) async throws -> [SessionRevocation] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(sql: "SELECT session_id, revoked_at FROM session_revocation WHERE revoked_at >= ? ORDER BY revoked_at"),
        arguments: [since.storedValue]
      ).map { SessionRevocation(sessionIDs: [$0["session_id"]], revokedAt: Date(stored: $0["revoked_at"])) }
    }
  }

  static func revokeSessions(_ db: Database, accountID: String, except keep: String?, at now: Date) throws -> [String] {
    let open = try String.fetchAll(
      db.cachedStatement(sql: "SELECT id FROM session WHERE account_id = ? AND revoked_at IS NULL AND id IS NOT ?"),
      arguments: [accountID, keep]
    )
    try markRevoked(db, sessionIDs: open, at: now)
    return open
  }

  static func markRevoked(_ db: Database, sessionIDs: [String], at now: Date) throws {
    for id in sessionIDs {
      try db.execute(sql: "UPDATE session SET revoked_at = ? WHERE id = ?", arguments: [now.storedValue, id])
      try db.execute(
        sql: "INSERT OR IGNORE INTO session_revocation (session_id, revoked_at) VALUES (?, ?)",
        arguments: [id, now.storedValue]
      )
    }
  }

  static func insertRefreshToken(_ db: Database, hash: String, sessionID: String, expiresAt: Date, now: Date) throws {
    try db.execute(
      sql: "INSERT INTO refresh_token (token_hash, session_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
      arguments: [hash, sessionID, now.storedValue, expiresAt.storedValue]
    )
  }
}
