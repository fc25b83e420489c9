import BinarioAuth
import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Creates an unconfirmed passenger account and emails it a confirmation code (and, when a phone
  /// is given, texts the phone a code of its own).
  ///
  /// `INVALID_ARGUMENT` naming each bad field; `ALREADY_EXISTS` for an address already registered.
  public func register(_ details: PersonalDetails) async throws -> Account {
    let now = clock.now()
    let details = try validated(details, today: now)
    let account = try await createAccount(details, roles: [.passenger], confirmed: false, now: now)
    return account
  }

  /// Confirms `email` with `code`: a new account's address, or the pending address of a ChangeEmail.
  public func confirmEmail(email rawEmail: String, code rawCode: String) async throws {
    var check = InputValidation()
    let email = check.email(rawEmail, field: "email")
    let code = check.code(rawCode, field: "code", sentBy: "confirmation email")
    try check.finish()

    guard let confirmation = try await store.confirmation(email: email) else {
      throw ServiceError.invalid("code", "the code is wrong")
    }
    guard confirmation.failedAttempts < policy.confirmationAttempts else {
      throw ServiceError.failedPrecondition("too many wrong codes for \(email); ask for a new code")
    }
    guard clock.now() < confirmation.expiresAt else {
      throw ServiceError.failedPrecondition("the code for \(email) has expired; ask for a new code")
    }
    let expected = Array(confirmation.codeHash.utf8)
    let given = Array(SecretToken.hash(code, context: email).utf8)
    guard PasswordHasher.constantTimeEqual(expected, given) else {
      try await store.recordWrongCode(accountID: confirmation.accountID)
      throw ServiceError.invalid("code", "the code is wrong")
    }
    do {
      try await store.completeConfirmation(accountID: confirmation.accountID, email: email, at: clock.now())
    } catch StoreConflict.emailTaken {
      throw ServiceError.alreadyExists("another account has taken \(email) meanwhile")
    }
  }

  /// Sends a new code to `email` if an account waits for that address to be confirmed; otherwise
  /// does nothing. Answers the same either way, so it cannot be used to probe for accounts.
  public func resendConfirmation(email rawEmail: String) async throws {
    var check = InputValidation()
    let email = check.email(rawEmail, field: "email")
    try check.finish()
    let now = clock.now()
    if let account = try await store.account(email: email), !account.emailConfirmed {
      try await sendConfirmation(to: email, accountID: account.id, firstName: account.firstName, language: account.language, now: now, replace: true)
    } else if let account = try await store.account(pendingEmail: email) {
      try await sendConfirmation(to: email, accountID: account.id, firstName: account.firstName, language: account.language, now: now, replace: true)
    }
  }

  // MARK: - Shared with CreateDriver and ChangeEmail

  /// Checks every field of `details` at once; returns them normalized (address lower-cased,
  /// names trimmed, phone without spaces). Only email, password and first name are required.
  func validated(_ details: PersonalDetails, today: Date) throws(ServiceError) -> PersonalDetails {
    var check = InputValidation()
    var result = details
    result.email = check.email(details.email, field: "email")
    check.password(details.password, field: "password", email: result.email)
    result.firstName = check.requiredText(details.firstName, field: "first_name", what: "a first name")
    result.lastName = check.optionalText(details.lastName, field: "last_name", what: "the last name")
    result.phone = check.optionalPhone(details.phone, field: "phone")
    result.birthDate = check.optionalBirthDate(details.birthDate, field: "birth_date", today: today)
    result.language = check.language(details.language, field: "language").rawValue
    try check.finish()
    return result
  }

  /// Stores a new account (and, unless `confirmed`, a confirmation of its address, which it then
  /// emails).
  func createAccount(_ details: PersonalDetails, roles: Set<Role>, confirmed: Bool, now: Date) async throws -> Account {
    if try await store.account(email: details.email) != nil {
      throw ServiceError.alreadyExists("an account with the address \(details.email) already exists")
    }
    let account = Account(
      id: Self.newID(),
      email: details.email,
      emailConfirmed: confirmed,
      pendingEmail: nil,
      firstName: details.firstName,
      lastName: details.lastName,
      phone: details.phone,
      birthDate: details.birthDate,
      gender: details.gender,
      roles: roles,
      createdAt: now,
      language: Language(tag: details.language) ?? .fallback
    )
    let code = SecretToken.newConfirmationCode()
    let phoneCode = SecretToken.newConfirmationCode()
    do {
      try await store.insertAccount(
        account,
        passwordHash: await hasher.inBackground { $0.hash(details.password) },
        confirmation: confirmed ? nil : confirmation(code: code, for: account.id, email: account.email, now: now),
        phoneVerification: account.phone.isEmpty
          ? nil : phoneVerification(code: phoneCode, for: account.id, phone: account.phone, now: now)
      )
    } catch StoreConflict.emailTaken {
      throw ServiceError.alreadyExists("an account with the address \(details.email) already exists")
    }
    if !confirmed {
      try await emailCode(code, to: account.email, firstName: account.firstName, language: account.language)
    }
    if !account.phone.isEmpty {
      try await textPhoneCode(phoneCode, to: account.phone, language: account.language)
    }
    return account
  }

  /// A new code for `email`, stored (replacing the account's previous one) and emailed.
  func sendConfirmation(to email: String, accountID: String, firstName: String, language: Language, now: Date, replace: Bool) async throws {
    let code = SecretToken.newConfirmationCode()
    try await store.replaceConfirmation(confirmation(code: code, for: accountID, email: email, now: now))
    try await emailCode(code, to: email, firstName: firstName, language: language)
  }

  func confirmation(code: String, for accountID: String, email: String, now: Date) -> PendingConfirmation {
    PendingConfirmation(
      accountID: accountID,
      email: email,
      codeHash: SecretToken.hash(code, context: email),
      expiresAt: now.addingTimeInterval(policy.confirmationCodeLifetime)
    )
  }

  /// Emails `code` to `email`.
  func emailCode(_ code: String, to email: String, firstName: String, language: Language) async throws {
    let hours = Int(policy.confirmationCodeLifetime / 3600)
    try await emailSender.send(
      Email(
        to: email,
        subject: "Your Binario confirmation code: \(code)",
        body: """
          Hello \(firstName),

          your Binario confirmation code is \(code). It confirms the address \(email) and is valid for \(hours) hours.

          If you did not ask for it, ignore this message.
          """,
        language: language
      )
    )
  }
}
