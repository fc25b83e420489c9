import Foundation
import GRDB

extension IdentityStore {
  /// Records a request from `from` to `to`.
  /// - Throws: ``StoreConflict/duplicate`` if the same request is already pending.
  public func insertFriendRequest(id: String, from: String, to: String, at now: Date) async throws -> FriendRequest {
    do {
      return try await pool.write { db in
        try db.execute(
          sql: "INSERT INTO friend_request (id, from_account_id, to_account_id, created_at) VALUES (?, ?, ?, ?)",
          arguments: [id, from, to, now.storedValue]
        )
        return try Self.fetchFriendRequests(db, where: "r.id = ?", id)[0]
      }
    } catch let error as DatabaseError where error.isUniqueViolation {
      throw StoreConflict.duplicate
    }
  }

  public func friendRequest(id: String) async throws -> FriendRequest? {
    try pool.readOnCurrentThread { db in try Self.fetchFriendRequests(db, where: "r.id = ?", id).first }
  }

  /// The pending request from `from` to `to`, if any.
  public func hasPendingFriendRequest(from: String, to: String) async throws -> Bool {
    try pool.readOnCurrentThread { db in
      try Bool.fetchOne(
        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM friend_request WHERE from_account_id = ? AND to_account_id = ?)"),
        arguments: [from, to]
      ) ?? false
    }
  }

  public func friendRequests(of accountID: String) async throws -> FriendRequests {
    try pool.readOnCurrentThread { db in
      FriendRequests(
        incoming: try Self.fetchFriendRequests(db, where: "r.to_account_id = ?", accountID),
        outgoing: try Self.fetchFriendRequests(db, where: "r.from_account_id = ?", accountID)
      )
    }
  }

  /// Removes the request; if `accept`, the two become friends (in the same transaction), and a
  /// request the other way, if any, goes too. Records `FriendshipStarted` or
  /// `FriendRequestDeclined`.
  public func resolveFriendRequest(_ request: FriendRequest, accept: Bool, at now: Date) async throws {
    try await pool.write { db in
      try db.execute(sql: "DELETE FROM friend_request WHERE id = ?", arguments: [request.id])
      let (a, b) = (request.from.userID, request.to.userID)
      guard accept else {
        try recordFriendRequestDeclined(from: a, to: b, at: now, db)
        return
      }
      try db.execute(
        sql: "DELETE FROM friend_request WHERE from_account_id = ? AND to_account_id = ?",
        arguments: [b, a]
      )
      try befriend(a, b, at: now, db)
    }
  }

  public func areFriends(_ a: String, _ b: String) async throws -> Bool {
    try pool.readOnCurrentThread { db in
      try Bool.fetchOne(
        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM friendship WHERE account_id = ? AND friend_id = ?)"),
        arguments: [a, b]
      ) ?? false
    }
  }

  /// The account's friends, by name.
  public func friends(of accountID: String) async throws -> [UserSummary] {
    try pool.readOnCurrentThread { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT a.id, a.email, a.first_name, a.last_name
            FROM friendship f JOIN account a ON a.id = f.friend_id
            WHERE f.account_id = ?
            ORDER BY a.first_name, a.last_name, a.id
            """
        ),
        arguments: [accountID]
      ).map { UserSummary(userID: $0["id"], email: $0["email"], firstName: $0["first_name"], lastName: $0["last_name"]) }
    }
  }

  /// Ends the friendship both ways, recording `FriendshipEnded`. Returns whether there was one.
  public func removeFriendship(_ a: String, _ b: String, at now: Date) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: """
          DELETE FROM friendship WHERE (account_id = ? AND friend_id = ?) OR (account_id = ? AND friend_id = ?)
          """,
        arguments: [a, b, b, a]
      )
      guard db.changesCount > 0 else { return false }
      try recordFriendshipEnded(a, b, at: now, db)
      return true
    }
  }

  /// `condition` is a constant SQL fragment from this file; the value is an argument.
  static func fetchFriendRequests(_ db: Database, where condition: String, _ value: String) throws -> [FriendRequest] {
    try Row.fetchAll(
      db,
      sql: """
        SELECT r.id, r.created_at,
          f.id AS f_id, f.email AS f_email, f.first_name AS f_first, f.last_name AS f_last,
          t.id AS t_id, t.email AS t_email, t.first_name AS t_first, t.last_name AS t_last
        FROM friend_request r
        JOIN account f ON f.id = r.from_account_id
        JOIN account t ON t.id = r.to_account_id
        WHERE \(condition)
        ORDER BY r.created_at, r.rowid
        """,
      arguments: [value]
    ).map { row in
      FriendRequest(
        id: row["id"],
        from: UserSummary(userID: row["f_id"], email: row["f_email"], firstName: row["f_first"], lastName: row["f_last"]),
        to: UserSummary(userID: row["t_id"], email: row["t_email"], firstName: row["t_first"], lastName: row["t_last"]),
        createdAt: Date(stored: row["created_at"])
      )
    }
  }
}
