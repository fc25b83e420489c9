import BinarioAuth
import BinarioDomain
import Foundation
import GRDB

extension IdentityStore {
  /// A new account with its roles and, if given, the confirmation of its address.
  /// - Throws: ``StoreConflict/emailTaken`` when another account has the address.
  public func insertAccount(
    _ account: Account,
    passwordHash: String,
    confirmation: PendingConfirmation?,
    phoneVerification: PhoneVerification? = nil,
    externalLogin: ExternalLogin? = nil
  ) async throws {
    do {
      try await pool.write { db in
        try db.execute(
          sql: """
            INSERT INTO account (id, email, email_confirmed, pending_email, password_hash, first_name,
              last_name, phone, phone_verified, birth_date, gender, created_at, language)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
          arguments: [
            account.id, account.email, account.emailConfirmed, account.pendingEmail, passwordHash,
            account.firstName, account.lastName, account.phone, account.phoneVerified, account.birthDate,
            account.gender?.rawValue, account.createdAt.storedValue, account.language.rawValue,
          ]
        )
        try Self.writeRoles(account.roles, of: account.id, db)
        if let confirmation {
          try Self.writeConfirmation(confirmation, db)
        }
        if let phoneVerification {
          try Self.writePhoneVerification(phoneVerification, db)
        }
        if let externalLogin {
          try Self.writeExternalLogin(externalLogin, db)
        }
        if account.emailConfirmed {
          try addressConfirmed(db, accountID: account.id, at: account.createdAt)
        }
      }
    } catch let error as DatabaseError where error.isUniqueViolation {
      throw StoreConflict.emailTaken
    }
  }

  public func account(id: String) async throws -> Account? {
    try pool.readOnCurrentThread { db in try Self.fetchAccount(db, where: "id = ?", id) }
  }

  /// The account whose (confirmed or not) address is `email` (normalized).
  public func account(email: String) async throws -> Account? {
    try pool.readOnCurrentThread { db in try Self.fetchAccount(db, where: "email = ?", email) }
  }

  /// The account waiting to change its address to `email` (normalized), if any.
  public func account(pendingEmail email: String) async throws -> Account? {
    try pool.readOnCurrentThread { db in try Self.fetchAccount(db, where: "pending_email = ?", email) }
  }

  /// The account and its password hash, by id.
  public func credentials(accountID: String) async throws -> (account: Account, passwordHash: String)? {
    try pool.readOnCurrentThread { db in try Self.fetchCredentials(db, where: "id = ?", accountID) }
  }

  /// The account and its password hash, by address.
  public func credentials(email: String) async throws -> (account: Account, passwordHash: String)? {
    try pool.readOnCurrentThread { db in try Self.fetchCredentials(db, where: "email = ?", email) }
  }

  /// Replaces the account's roles.
  public func setRoles(_ roles: Set<Role>, accountID: String) async throws {
    try await pool.write { db in try Self.writeRoles(roles, of: accountID, db) }
  }

  /// Removes `role` from the account, unless that would leave no admin at all.
  /// - Returns: `false` (nothing changed) when the account is the last admin and `role` is admin.
  public func removeRole(_ role: Role, accountID: String) async throws -> Bool {
    try await pool.write { db in
      if role == .admin {
        let admins = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM account_role WHERE role = 'admin'")) ?? 0
        let isAdmin =
          try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM account_role WHERE account_id = ? AND role = 'admin')"),
            arguments: [accountID]
          ) ?? false
        if isAdmin && admins <= 1 { return false }
      }
      try db.execute(
        sql: "DELETE FROM account_role WHERE account_id = ? AND role = ?",
        arguments: [accountID, role.rawValue]
      )
      return true
    }
  }

  public func adminExists() async throws -> Bool {
    try pool.readOnCurrentThread { db in
      try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM account_role WHERE role = 'admin')")) ?? false
    }
  }

  static func writeRoles(_ roles: Set<Role>, of accountID: String, _ db: Database) throws {
    try db.execute(sql: "DELETE FROM account_role WHERE account_id = ?", arguments: [accountID])
    for role in roles.sorted() {
      try db.execute(
        sql: "INSERT INTO account_role (account_id, role) VALUES (?, ?)",
        arguments: [accountID, role.rawValue]
      )
    }
  }

  /// `condition` is a constant SQL fragment from this file; the value is an argument.
  static func fetchAccount(_ db: Database, where condition: String, _ value: String) throws -> Account? {
    try Row.fetchOne(db.cachedStatement(sql: accountSelect + " WHERE \(condition)"), arguments: [value]).map(account(from:))
  }

  /// The account with its password hash, in the same one query.
  static func fetchCredentials(_ db: Database, where condition: String, _ value: String) throws -> (account: Account, passwordHash: String)? {
    guard let row = try Row.fetchOne(db.cachedStatement(sql: credentialsSelect + " WHERE \(condition)"), arguments: [value]) else {
      return nil
    }
    return (account(from: row), row[AccountColumn.passwordHash])
  }

  /// One query per account: its roles and linked providers come as comma-separated lists.
  static let accountSelect = "SELECT \(accountColumns) FROM account"
  static let credentialsSelect = "SELECT \(accountColumns), password_hash FROM account"
  static let accountColumns = """
    id, email, email_confirmed, pending_email, first_name, last_name, phone, phone_verified,
      birth_date, gender, created_at, disabled_at IS NOT NULL AS disabled, password_hash != '' AS has_password,
      (SELECT group_concat(role) FROM account_role WHERE account_id = account.id) AS roles,
      (SELECT group_concat(provider) FROM external_login WHERE account_id = account.id) AS providers, language
    """

  /// The columns of ``accountColumns`` by position: a row read by index skips GRDB's
  /// case-insensitive name lookup, a measurable share of a `GetMe`.
  enum AccountColumn {
    static let id = 0, email = 1, emailConfirmed = 2, pendingEmail = 3, firstName = 4, lastName = 5
    static let phone = 6, phoneVerified = 7, birthDate = 8, gender = 9, createdAt = 10, disabled = 11
    static let hasPassword = 12, roles = 13, providers = 14, language = 15
    /// In ``credentialsSelect`` only, after the others.
    static let passwordHash = 16
  }

  static func account(from row: Row) -> Account {
    typealias Column = AccountColumn
    let roles: String? = row[Column.roles]
    let providers: String? = row[Column.providers]
    return Account(
      id: row[Column.id],
      email: row[Column.email],
      emailConfirmed: row[Column.emailConfirmed],
      pendingEmail: row[Column.pendingEmail],
      firstName: row[Column.firstName],
      lastName: row[Column.lastName],
      phone: row[Column.phone],
      birthDate: row[Column.birthDate],
      gender: (row[Column.gender] as String?).flatMap(Gender.init(rawValue:)),
      roles: Role.parse((roles ?? "").split(separator: ",").map(String.init)),
      createdAt: Date(stored: row[Column.createdAt]),
      phoneVerified: row[Column.phoneVerified],
      disabled: row[Column.disabled],
      hasPassword: row[Column.hasPassword],
      linkedProviders: (providers ?? "").split(separator: ",").map(String.init).sorted(),
      language: Language(tag: row[Column.language]) ?? .fallback
    )
  }

  static func summary(_ db: Database, accountID: String) throws -> UserSummary? {
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT id, email, first_name, last_name FROM account WHERE id = ?"),
        arguments: [accountID]
      )
    else { return nil }
    return UserSummary(userID: row["id"], email: row["email"], firstName: row["first_name"], lastName: row["last_name"])
  }
}
