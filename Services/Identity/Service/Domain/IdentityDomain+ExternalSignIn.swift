import BinarioAuth
import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Signs in with an ID token from Google: the account linked to the token's subject, else the
  /// account with the token's verified address (then linked), else a new confirmed passenger
  /// account without a password (then linked).
  ///
  /// An unconfirmed account with that address is confirmed by the token, and any password set on
  /// it is cleared: whoever chose it never proved they own the address.
  ///
  /// - Returns: The tokens, and whether the account was created now.
  public func loginWithGoogle(idToken rawToken: String) async throws -> (tokens: TokenPair, created: Bool) {
    guard let verifier = googleSignIn else {
      throw ServiceError.failedPrecondition("sign-in with Google is not configured on this server")
    }
    let idToken = rawToken.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !idToken.isEmpty else { throw ServiceError.invalid("id_token", "an ID token is required") }
    let now = clock.now()
    let person = try await verifier.verify(idToken: idToken, now: now)
    let (account, created) = try await externalAccount(for: person, now: now)
    try refuseIfDisabled(account)
    return (try await openSession(for: account, now: now), created)
  }

  private func externalAccount(for person: ExternalIdentity, now: Date) async throws -> (Account, Bool) {
    if let linked = try await store.account(provider: person.provider, subject: person.subject) {
      return (linked, false)
    }
    let login = { (accountID: String) in
      ExternalLogin(provider: person.provider, subject: person.subject, accountID: accountID, createdAt: now)
    }
    if let existing = try await store.account(email: person.email) {
      try await store.linkExternalLogin(login(existing.id), confirmingUnconfirmedAddress: !existing.emailConfirmed)
      guard let linked = try await store.account(id: existing.id) else {
        throw ServiceError.unauthenticated("the account was deleted meanwhile; sign in again")
      }
      return (linked, false)
    }
    let localPart = String(person.email.split(separator: "@").first ?? "")
    let firstName =
      [person.givenName, person.name, localPart]
      .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
      .first { !$0.isEmpty } ?? localPart
    let account = Account(
      id: Self.newID(),
      email: person.email,
      emailConfirmed: true,
      pendingEmail: nil,
      firstName: String(firstName.prefix(100)),
      lastName: String((person.givenName == nil ? "" : person.familyName ?? "").prefix(100)),
      phone: "",
      birthDate: "",
      gender: nil,
      roles: [.passenger],
      createdAt: now,
      hasPassword: false,
      linkedProviders: [person.provider]
    )
    do {
      try await store.insertAccount(account, passwordHash: "", confirmation: nil, externalLogin: login(account.id))
    } catch StoreConflict.emailTaken {
      // A concurrent first sign-in (or a registration) took the address: use that account.
      return try await externalAccount(for: person, now: now)
    }
    return (account, true)
  }
}
