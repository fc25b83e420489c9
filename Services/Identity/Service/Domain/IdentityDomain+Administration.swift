import BinarioAuth
import Foundation

extension IdentityDomain {
  /// Creates a confirmed account with the passenger and driver roles (an admin's act; the
  /// interceptor has checked the role).
  public func createDriver(_ details: PersonalDetails) async throws -> Account {
    let now = clock.now()
    let details = try validated(details, today: now)
    return try await createAccount(details, roles: [.passenger, .driver], confirmed: true, now: now)
  }

  /// Adds `role` to an account and ends its sessions, so the change applies at once.
  public func grantRole(_ role: Role?, to reference: AccountReference?) async throws -> Account {
    var account = try await resolveAccountForRoleChange(reference, role: role)
    guard let role else { preconditionFailure("checked by resolveAccountForRoleChange") }
    if !account.roles.contains(role) {
      account.roles.insert(role)
      try await store.setRoles(account.roles, accountID: account.id)
    }
    try await endSessions(of: account.id)
    return account
  }

  /// Removes `role` from an account and ends its sessions. The last admin stays admin
  /// (`FAILED_PRECONDITION`), so the platform always has one.
  public func revokeRole(_ role: Role?, from reference: AccountReference?) async throws -> Account {
    var account = try await resolveAccountForRoleChange(reference, role: role)
    guard let role else { preconditionFailure("checked by resolveAccountForRoleChange") }
    if account.roles.contains(role) {
      guard try await store.removeRole(role, accountID: account.id) else {
        throw IdentityError.failedPrecondition(
          "\(account.email) is the last admin; make someone else admin before revoking this role")
      }
      account.roles.remove(role)
    }
    try await endSessions(of: account.id)
    return account
  }

  /// What the outbox recorded, newest first; `limit` 0 means 50 (at most 500).
  public func outboxMessages(recipient: String, limit: Int) async throws -> [OutboxMessage] {
    let trimmed = recipient.trimmingCharacters(in: .whitespaces)
    let filter = trimmed.isEmpty ? nil : (trimmed.contains("@") ? InputValidation.normalizedEmail(trimmed) : trimmed)
    let count = limit <= 0 ? 50 : min(limit, 500)
    return try await store.outboxMessages(recipient: filter, limit: count)
  }

  /// At first start: if no account is admin, makes the configured one admin, creating it (confirmed,
  /// names "Binario Admin") if no account has the address. Does nothing once an admin exists.
  ///
  /// - Returns: The account made admin, or `nil` if there already was an admin.
  /// - Throws: `INVALID_ARGUMENT` for a malformed address or a weak password.
  @discardableResult
  public func ensureFirstAdmin(email rawEmail: String, password: String) async throws -> Account? {
    guard try await !store.adminExists() else { return nil }
    var check = InputValidation()
    let email = check.email(rawEmail, field: "admin-email")
    check.password(password, field: "admin-password", email: email)
    try check.finish()
    if var existing = try await store.account(email: email) {
      existing.roles.insert(.admin)
      try await store.setRoles(existing.roles, accountID: existing.id)
      return existing
    }
    let now = clock.now()
    let account = Account(
      id: Self.newID(),
      email: email,
      emailConfirmed: true,
      pendingEmail: nil,
      firstName: "Binario",
      lastName: "Admin",
      phone: "",
      birthDate: "",
      gender: nil,
      roles: [.passenger, .admin],
      createdAt: now
    )
    try await store.insertAccount(account, passwordHash: await hasher.inBackground { $0.hash(password) }, confirmation: nil)
    return account
  }

  private func resolveAccountForRoleChange(_ reference: AccountReference?, role: Role?) async throws -> Account {
    var check = InputValidation()
    if role == nil { check.fail("role", "choose a role: passenger, driver or admin") }
    var account: Account?
    switch reference {
    case nil:
      check.fail("account", "name the account by user id or email")
    case .id(let id) where id.trimmingCharacters(in: .whitespaces).isEmpty:
      check.fail("account.user_id", "a user id is required")
    case .email(let email) where InputValidation.normalizedEmail(email).isEmpty:
      check.fail("account.email", "an email address is required")
    case .id(let id):
      account = try await store.account(id: id.trimmingCharacters(in: .whitespaces))
    case .email(let email):
      account = try await store.account(email: InputValidation.normalizedEmail(email))
    }
    try check.finish()
    guard let account else { throw IdentityError.notFound("no such account") }
    return account
  }

  private func endSessions(of accountID: String) async throws {
    let now = clock.now()
    let ended = try await store.revokeSessions(accountID: accountID, at: now)
    publishRevocation(ended, at: now)
  }
}
