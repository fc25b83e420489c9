import BinarioAuth
import BinarioDomain
import Foundation

extension IdentityDomain {
  // Every method here is an admin's act (the interceptor has checked the role); `actorID` is the
  // admin, recorded with what they did in the audit log.

  /// Creates a confirmed account with the passenger and driver roles.
  public func createDriver(_ details: PersonalDetails, by actorID: String) async throws -> Account {
    let now = clock.now()
    let details = try validated(details, today: now)
    let account = try await createAccount(details, roles: [.passenger, .driver], confirmed: true, now: now)
    try await audit(.createDriver, by: actorID, on: account, detail: "")
    return account
  }

  /// Adds `role` to an account and ends its sessions, so the change applies at once.
  public func grantRole(_ role: Role?, to reference: AccountReference?, by actorID: String) async throws -> Account {
    var account = try await resolveAccountForRoleChange(reference, role: role)
    guard let role else { preconditionFailure("checked by resolveAccountForRoleChange") }
    if !account.roles.contains(role) {
      account.roles.insert(role)
      try await store.setRoles(account.roles, accountID: account.id)
    }
    try await endSessions(of: account.id)
    try await audit(.grantRole, by: actorID, on: account, detail: "role=\(role.rawValue)")
    return account
  }

  /// Removes `role` from an account and ends its sessions. The last admin stays admin
  /// (`FAILED_PRECONDITION`), so the platform always has one.
  public func revokeRole(_ role: Role?, from reference: AccountReference?, by actorID: String) async throws -> Account {
    var account = try await resolveAccountForRoleChange(reference, role: role)
    guard let role else { preconditionFailure("checked by resolveAccountForRoleChange") }
    if account.roles.contains(role) {
      guard try await store.removeRole(role, accountID: account.id) else {
        throw ServiceError.failedPrecondition(
          "\(account.email) is the last admin; make someone else admin before revoking this role"
        )
      }
      account.roles.remove(role)
    }
    try await endSessions(of: account.id)
    try await audit(.revokeRole, by: actorID, on: account, detail: "role=\(role.rawValue)")
    return account
  }

  /// Accounts matching `search`, a page at a time.
  public func listAccounts(_ search: AccountSearch) async throws -> AccountPage {
    var search = search
    search.pageSize = try Paging.size(search.pageSize, default: 50, maximum: 200)
    guard search.query.count <= 200 else { throw ServiceError.invalid("query", "the query is longer than 200 characters") }
    search.query = search.query.trimmingCharacters(in: .whitespacesAndNewlines)
    return try await store.accounts(matching: search)
  }

  /// One account, by id or email.
  public func account(_ reference: AccountReference?) async throws -> Account {
    try await resolveAccount(reference)
  }

  /// Changes profile fields of an account, checked as at registration; a new phone must be
  /// verified again by its owner.
  public func updateAccount(_ reference: AccountReference?, changes: ProfileChanges, by actorID: String) async throws -> Account {
    let account = try await resolveAccount(reference)
    guard !changes.fieldNames.isEmpty else {
      throw ServiceError.invalid("account", "name at least one field to change")
    }
    let updated = try await applyProfileChanges(changes, to: account)
    try await audit(.updateAccount, by: actorID, on: updated, detail: changes.fieldNames.joined(separator: ", "))
    return updated
  }

  /// Disables an account: it cannot sign in, and its sessions end at once (as logout ends one).
  /// An admin cannot disable their own account.
  public func disableAccount(_ reference: AccountReference?, reason rawReason: String, by actorID: String) async throws -> Account {
    let account = try await resolveAccount(reference)
    var check = InputValidation()
    let reason = check.optionalText(rawReason, field: "reason", what: "the reason", maxLength: 500)
    try check.finish()
    guard account.id != actorID else {
      throw ServiceError.failedPrecondition("you cannot disable your own account")
    }
    let now = clock.now()
    let revoked = try await store.disableAccount(
      id: account.id,
      at: now,
      audit: try await auditEntry(.disableAccount, by: actorID, on: account, detail: reason)
    )
    publishRevocation(revoked, at: now)
    return try await resolveAccount(.id(account.id))
  }

  /// Lets a disabled account sign in again.
  public func enableAccount(_ reference: AccountReference?, by actorID: String) async throws -> Account {
    let account = try await resolveAccount(reference)
    try await store.enableAccount(
      id: account.id,
      at: clock.now(),
      audit: try await auditEntry(.enableAccount, by: actorID, on: account, detail: "")
    )
    return try await resolveAccount(.id(account.id))
  }

  /// Deletes a driver's account as DeleteMe would. `FAILED_PRECONDITION` for an account that is
  /// not a driver, or is an admin.
  public func deleteDriver(_ reference: AccountReference?, by actorID: String) async throws {
    let account = try await resolveAccount(reference)
    guard account.roles.contains(.driver) else {
      throw ServiceError.failedPrecondition("\(account.email) is not a driver; only driver accounts are deleted here")
    }
    guard !account.roles.contains(.admin) else {
      throw ServiceError.failedPrecondition("\(account.email) is an admin; revoke the admin role first")
    }
    let now = clock.now()
    let entry = try await auditEntry(.deleteDriver, by: actorID, on: account, detail: "")
    let ended = try await store.deleteAccount(id: account.id, at: now, audit: entry)
    publishRevocation(ended, at: now)
  }

  /// The audit log, newest first; `limit` 0 means 50 (at most 500).
  public func auditEntries(targetID rawTarget: String, limit: Int) async throws -> [AuditEntry] {
    let target = rawTarget.trimmingCharacters(in: .whitespaces)
    return try await store.auditEntries(targetID: target.isEmpty ? nil : target, limit: limit <= 0 ? 50 : min(limit, 500))
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
    return try await resolveAccount(reference, check: check)
  }

  /// The account `reference` names: `INVALID_ARGUMENT` (with any problems already in `check`)
  /// when it names none, `NOT_FOUND` when there is no such account.
  private func resolveAccount(_ reference: AccountReference?, check: InputValidation = InputValidation()) async throws -> Account {
    var check = check
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
    guard let account else { throw ServiceError.notFound("no such account") }
    return account
  }

  private func audit(_ action: AuditEntry.Action, by actorID: String, on target: Account, detail: String) async throws {
    try await store.insertAuditEntry(try await auditEntry(action, by: actorID, on: target, detail: detail))
  }

  private func auditEntry(_ action: AuditEntry.Action, by actorID: String, on target: Account, detail: String) async throws -> AuditEntry {
    AuditEntry(
      id: Self.newID(),
      actorID: actorID,
      actorEmail: try await store.account(id: actorID)?.email ?? "",
      action: action,
      targetID: target.id,
      targetEmail: target.email,
      detail: detail,
      at: clock.now()
    )
  }

  private func endSessions(of accountID: String) async throws {
    let now = clock.now()
    let ended = try await store.revokeSessions(accountID: accountID, at: now)
    publishRevocation(ended, at: now)
  }
}
