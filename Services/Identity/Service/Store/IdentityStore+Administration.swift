import BinarioAuth
import Foundation
import GRDB

extension IdentityStore {
  /// A page of accounts matching `search`, ordered by email.
  public func accounts(matching search: AccountSearch) async throws -> AccountPage {
    try pool.readOnCurrentThread { db in
      var conditions: [String] = []
      var arguments: [any DatabaseValueConvertible] = []
      let query = search.query.lowercased()
      if !query.isEmpty {
        let pattern = "%" + Self.escapedForLike(query) + "%"
        conditions.append(
          "(email LIKE ? ESCAPE '\\' OR lower(first_name) LIKE ? ESCAPE '\\' OR lower(last_name) LIKE ? ESCAPE '\\')"
        )
        arguments += [pattern, pattern, pattern]
      }
      if let role = search.role {
        conditions.append("EXISTS (SELECT 1 FROM account_role WHERE account_id = account.id AND role = ?)")
        arguments.append(role.rawValue)
      }
      if let after = search.afterEmail {
        conditions.append("email > ?")
        arguments.append(after)
      }
      let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
      arguments.append(search.pageSize + 1)
      var accounts = try Row.fetchAll(
        db,
        sql: Self.accountSelect + whereClause + " ORDER BY email LIMIT ?",
        arguments: StatementArguments(arguments)
      ).map(Self.account(from:))
      var next: String?
      if accounts.count > search.pageSize {
        accounts.removeLast()
        next = accounts.last?.email
      }
      return AccountPage(accounts: accounts, nextAfterEmail: next)
    }
  }

  /// Disables the account and revokes its sessions, recording `audit` and `AccountDisabled`, in
  /// one transaction.
  /// - Returns: The sessions revoked.
  public func disableAccount(id: String, at now: Date, audit: AuditEntry) async throws -> [String] {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE account SET disabled_at = ? WHERE id = ? AND disabled_at IS NULL",
        arguments: [now.storedValue, id]
      )
      let disabled = db.changesCount > 0
      let revoked = try Self.revokeSessions(db, accountID: id, except: nil, at: now)
      try Self.writeAuditEntry(audit, db)
      if disabled { try recordAccountDisabled(id, at: now, db) }
      return revoked
    }
  }

  /// Enables the account, recording `audit` and `AccountEnabled`, in one transaction.
  public func enableAccount(id: String, at now: Date, audit: AuditEntry) async throws {
    try await pool.write { db in
      try db.execute(sql: "UPDATE account SET disabled_at = NULL WHERE id = ? AND disabled_at IS NOT NULL", arguments: [id])
      let enabled = db.changesCount > 0
      try Self.writeAuditEntry(audit, db)
      if enabled { try recordAccountEnabled(id, at: now, db) }
    }
  }

  /// Accounts by ids and emails (normalized), each once: those found by id first, in the
  /// order asked, then those found by email. Two queries, whatever the number asked.
  public func accounts(ids: [String], emails: [String]) async throws -> [Account] {
    try pool.readOnCurrentThread { db in
      func fetch(_ column: String, _ values: [String]) throws -> [String: Account] {
        guard !values.isEmpty else { return [:] }
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        let rows = try Row.fetchAll(
          db,
          sql: Self.accountSelect + " WHERE \(column) IN (\(placeholders))",
          arguments: StatementArguments(values)
        )
        return Dictionary(rows.map(Self.account(from:)).map { (column == "id" ? $0.id : $0.email, $0) }) { first, _ in first }
      }
      let byID = try fetch("id", ids)
      let byEmail = try fetch("email", emails)
      var seen = Set<String>()
      return (ids.compactMap { byID[$0] } + emails.compactMap { byEmail[$0] }).filter { seen.insert($0.id).inserted }
    }
  }

  static func escapedForLike(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }
}
