import BinarioDomain
import Foundation

extension IdentityDomain {
  /// The caller's own account.
  public func me(userID: String) async throws -> Account {
    try await callerAccount(userID)
  }

  /// Changes the given fields of the caller's profile; each is checked as at registration. A new
  /// phone counts as unverified until the code texted to it is entered (VerifyPhone).
  public func updateMe(userID: String, changes: ProfileChanges) async throws -> Account {
    try await applyProfileChanges(changes, to: try await callerAccount(userID))
  }

  /// Checks and stores `changes` to `account`; texts a code to a new phone.
  func applyProfileChanges(_ changes: ProfileChanges, to original: Account) async throws -> Account {
    var account = original
    var check = InputValidation()
    let now = clock.now()
    if let firstName = changes.firstName {
      account.firstName = check.requiredText(firstName, field: "first_name", what: "a first name")
    }
    if let lastName = changes.lastName {
      account.lastName = check.optionalText(lastName, field: "last_name", what: "the last name")
    }
    if let phone = changes.phone {
      account.phone = check.optionalPhone(phone, field: "phone")
    }
    if let birthDate = changes.birthDate {
      account.birthDate = check.optionalBirthDate(birthDate, field: "birth_date", today: now)
    }
    if let gender = changes.gender {
      account.gender = gender
    }
    if let language = changes.language {
      account.language = check.language(language, field: "language")
    }
    try check.finish()
    var phoneCode: String?
    var verification: PhoneVerification?
    if account.phone != original.phone {
      account.phoneVerified = false
      if !account.phone.isEmpty {
        let code = SecretToken.newConfirmationCode()
        phoneCode = code
        verification = phoneVerification(code: code, for: account.id, phone: account.phone, now: now)
      }
    }
    try await store.updateProfile(account, phoneVerification: verification, at: now)
    if let phoneCode {
      try await textPhoneCode(phoneCode, to: account.phone, language: account.language)
    }
    return account
  }

  /// Sets a new password after checking the current one; ends the caller's other sessions.
  public func changePassword(userID: String, sessionID: String, current: String, new: String) async throws {
    let account = try await callerAccount(userID)
    var check = InputValidation()
    if current.isEmpty { check.fail("current_password", "the current password is required") }
    check.password(new, field: "new_password", email: account.email)
    try check.finish()
    let now = clock.now()
    _ = try await checkPassword(
      current,
      email: account.email,
      now: now,
      wrongPassword: .invalid("current_password", "the password is wrong")
    )
    try await store.setPasswordHash(await hasher.inBackground { $0.hash(new) }, accountID: account.id)
    let ended = try await store.revokeSessions(accountID: account.id, except: sessionID, at: now)
    publishRevocation(ended, at: now)
  }

  /// Starts moving the caller to a new address: it takes effect once confirmed with the code
  /// emailed to it (ConfirmEmail). Until then the old address stays in use.
  public func changeEmail(userID: String, password: String, newEmail rawEmail: String) async throws {
    let account = try await callerAccount(userID)
    var check = InputValidation()
    if password.isEmpty { check.fail("password", "the password is required") }
    let newEmail = check.email(rawEmail, field: "new_email")
    if newEmail == account.email { check.fail("new_email", "that is already your address") }
    try check.finish()
    let now = clock.now()
    _ = try await checkPassword(
      password,
      email: account.email,
      now: now,
      wrongPassword: .invalid("password", "the password is wrong")
    )
    if try await store.account(email: newEmail) != nil {
      throw ServiceError.alreadyExists("another account uses the address \(newEmail)")
    }
    let code = SecretToken.newConfirmationCode()
    try await store.setPendingEmail(
      newEmail,
      accountID: account.id,
      confirmation: confirmation(code: code, for: account.id, email: newEmail, now: now)
    )
    try await emailCode(code, to: newEmail, firstName: account.firstName, language: account.language)
  }

  /// Deletes the caller's account and everything personal about it (profile, roles, sessions,
  /// friends and requests, emergency contacts, messages addressed to it); ends all its sessions.
  public func deleteMe(userID: String, password: String) async throws {
    let account = try await callerAccount(userID)
    guard !password.isEmpty else { throw ServiceError.invalid("password", "the password is required") }
    let now = clock.now()
    _ = try await checkPassword(
      password,
      email: account.email,
      now: now,
      wrongPassword: .invalid("password", "the password is wrong")
    )
    if account.roles.contains(.admin), try await store.removeRole(.admin, accountID: account.id) == false {
      throw ServiceError.failedPrecondition("you are the last admin; make someone else admin first")
    }
    let ended = try await store.deleteAccount(id: account.id, at: now)
    publishRevocation(ended, at: now)
  }
}
