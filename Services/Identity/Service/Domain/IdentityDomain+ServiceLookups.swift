import BinarioDomain
import Foundation

extension IdentityDomain {
  /// Accounts by ids and emails, for other services; unknown ones are left out. At most 500 of
  /// each per call.
  public func lookupAccounts(ids rawIDs: [String], emails rawEmails: [String]) async throws -> [Account] {
    var check = InputValidation()
    if rawIDs.count > 500 { check.fail("user_ids", "at most 500 ids per call") }
    if rawEmails.count > 500 { check.fail("emails", "at most 500 emails per call") }
    try check.finish()
    let ids = rawIDs.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    let emails = rawEmails.map(InputValidation.normalizedEmail).filter { !$0.isEmpty }
    return try await store.accounts(ids: ids, emails: emails)
  }

  /// Whether two accounts are friends.
  public func areFriends(_ rawA: String, _ rawB: String) async throws -> Bool {
    var check = InputValidation()
    let a = rawA.trimmingCharacters(in: .whitespaces)
    let b = rawB.trimmingCharacters(in: .whitespaces)
    if a.isEmpty { check.fail("user_id", "a user id is required") }
    if b.isEmpty { check.fail("other_user_id", "a user id is required") }
    try check.finish()
    return try await store.areFriends(a, b)
  }

  /// Whether `userID` saved `email` as a contact who has not registered yet.
  public func isPendingContact(userID rawID: String, email rawEmail: String) async throws -> Bool {
    var check = InputValidation()
    let id = rawID.trimmingCharacters(in: .whitespaces)
    if id.isEmpty { check.fail("user_id", "a user id is required") }
    let email = check.email(rawEmail, field: "email")
    try check.finish()
    return try await store.hasPendingContact(accountID: id, email: email)
  }

  /// A friend request from `userID` to `otherID`, sent for `userID` by a service they asked (an
  /// itinerary invite). Returns whether they are friends now: already, or because `otherID` had
  /// asked `userID` and that request is accepted (both want it). A request already sent stays
  /// as it is.
  public func sendFriendRequest(for rawID: String, to rawOther: String) async throws -> Bool {
    let userID = try Self.requiredID(rawID, field: "user_id", what: "a user id")
    let otherID = try Self.requiredID(rawOther, field: "other_user_id", what: "a user id")
    if userID == otherID { throw ServiceError.invalid("other_user_id", "a person cannot befriend themselves") }
    guard let other = try await store.account(id: otherID) else { throw ServiceError.notFound("no account \(otherID)") }
    guard try await store.account(id: userID) != nil else { throw ServiceError.notFound("no account \(userID)") }
    if try await store.areFriends(userID, otherID) { return true }
    let requests = try await store.friendRequests(of: userID)
    if let theirs = requests.incoming.first(where: { $0.from.userID == otherID }) {
      try await store.resolveFriendRequest(theirs, accept: true, at: clock.now())
      return true
    }
    if requests.outgoing.contains(where: { $0.to.userID == otherID }) { return false }
    do {
      _ = try await store.insertFriendRequest(id: Self.newID(), from: userID, to: other.id, at: clock.now())
    } catch StoreConflict.duplicate {
      // Sent meanwhile by another call: the request waits either way.
    }
    return false
  }

  /// A user's card with its provider token, for a service that charges it: the default (`nil`
  /// when none) or the one named; `NOT_FOUND` for an unknown user.
  /// - Parameter paymentMethodID: Empty for the default; else that method, which must be the
  ///   user's (`NOT_FOUND` otherwise).
  public func paymentMethodOnFile(userID rawID: String, paymentMethodID: String = "") async throws -> PaymentMethod? {
    let id = try Self.requiredID(rawID, field: "user_id", what: "a user id")
    guard try await store.account(id: id) != nil else { throw ServiceError.notFound("no account \(id)") }
    guard !paymentMethodID.isEmpty else { return try await store.defaultPaymentMethod(accountID: id) }
    guard let method = try await store.paymentMethods(accountID: id).first(where: { $0.id == paymentMethodID }) else {
      throw ServiceError.notFound("no payment method \(paymentMethodID) among the user's cards")
    }
    return method
  }
}
