import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Saves a person by name and email. Someone without a confirmed account is kept pending
  /// registration (and gets an invitation email); when an account confirms that address, the two
  /// become friends. Someone with a confirmed account is sent a friend request instead.
  ///
  /// `INVALID_ARGUMENT` naming each bad field or the caller's own address; `ALREADY_EXISTS` when
  /// already saved, already friends or already asked. With `key`, the same key again answers the
  /// contact it saved, without a second invitation.
  public func addContact(userID: String, name rawName: String, email rawEmail: String, key: IdempotencyKey? = nil) async throws -> AddedContact {
    let caller = try await callerAccount(userID)
    let id = key.id(prefix: "ct") { Self.newID() }
    if key != nil, let earlier = try await store.pendingContacts(accountID: userID).first(where: { $0.id == id }) { return .pending(earlier) }
    var check = InputValidation()
    let name = check.requiredText(rawName, field: "name", what: "a name")
    let email = check.email(rawEmail, field: "email")
    if email == caller.email { check.fail("email", "that is your own address") }
    try check.finish()
    if let other = try await store.account(email: email), other.emailConfirmed {
      return .friendRequestSent(try await sendFriendRequest(userID: userID, email: email))
    }
    guard try await store.pendingContactCount(accountID: userID) < policy.maximumPendingContacts else {
      throw ServiceError.failedPrecondition(
        "you already have \(policy.maximumPendingContacts) contacts waiting to register; remove some first"
      )
    }
    let contact = PendingContact(id: id, name: name, email: email, createdAt: clock.now())
    do {
      try await store.insertPendingContact(contact, accountID: userID)
    } catch StoreConflict.duplicate {
      throw ServiceError.alreadyExists("you have already saved \(email)")
    }
    try await emailSender.send(
      Email(
        to: email,
        subject: "\(caller.displayName) added you on Binario",
        body: """
          Hello \(name),

          \(caller.displayName) (\(caller.email)) saved you as a friend on Binario, to plan trips and share subscriptions together.
          Sign up with this address and you will be friends straight away.

          If you do not know them, ignore this message.
          """,
        // They have no account yet: the words of the friend who saved them.
        language: caller.language
      )
    )
    return .pending(contact)
  }

  /// The caller's contacts pending registration.
  public func pendingContacts(userID: String) async throws -> [PendingContact] {
    try await store.pendingContacts(accountID: userID)
  }

  /// Removes a contact pending registration.
  public func removeContact(userID: String, contactID rawID: String) async throws {
    let id = try Self.requiredID(rawID, field: "contact_id", what: "a contact id")
    guard try await store.removePendingContact(id: id, accountID: userID) else {
      throw ServiceError.notFound("you have no contact \(id) waiting to register")
    }
  }
}
