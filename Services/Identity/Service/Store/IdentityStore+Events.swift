import BinarioProto
import Foundation
import GRDB

/// The events identity tells the other services (proto/binario/identity/v1/identity_events.proto), each
/// recorded in the transaction of the change it reports.
extension IdentityStore {
  func recordAccountDeleted(_ account: Account, byAdmin: Bool, at now: Date, _ db: Database) throws {
    let event = Binario_Identity_V1_AccountDeleted.with {
      $0.userID = account.id
      $0.email = account.email
      $0.phone = account.phone
      $0.byAdmin = byAdmin
    }
    try events.record(event, subjects: [account.id], at: now, in: db)
  }

  func recordAccountDisabled(_ accountID: String, at now: Date, _ db: Database) throws {
    try events.record(Binario_Identity_V1_AccountDisabled.with { $0.userID = accountID }, subjects: [accountID], at: now, in: db)
  }

  func recordAccountEnabled(_ accountID: String, at now: Date, _ db: Database) throws {
    try events.record(Binario_Identity_V1_AccountEnabled.with { $0.userID = accountID }, subjects: [accountID], at: now, in: db)
  }

  func recordFriendshipEnded(_ a: String, _ b: String, at now: Date, _ db: Database) throws {
    let event = Binario_Identity_V1_FriendshipEnded.with {
      $0.userID = a
      $0.friendID = b
    }
    try events.record(event, subjects: [a, b], at: now, in: db)
  }

  func recordFriendshipStarted(_ a: String, _ b: String, at now: Date, _ db: Database) throws {
    let event = Binario_Identity_V1_FriendshipStarted.with {
      $0.userID = a
      $0.friendID = b
    }
    try events.record(event, subjects: [a, b], at: now, in: db)
  }

  func recordFriendRequestDeclined(from: String, to: String, at now: Date, _ db: Database) throws {
    let event = Binario_Identity_V1_FriendRequestDeclined.with {
      $0.fromUserID = from
      $0.toUserID = to
    }
    try events.record(event, subjects: [from, to], at: now, in: db)
  }

  func recordAddressConfirmed(_ accountID: String, email: String, at now: Date, _ db: Database) throws {
    let event = Binario_Identity_V1_AddressConfirmed.with {
      $0.userID = accountID
      $0.email = email
    }
    try events.record(event, subjects: [accountID], at: now, in: db)
  }

  /// The account's name, verified phone and default card as they are now in this transaction.
  func recordAccountProfileChanged(_ accountID: String, at now: Date, _ db: Database) throws {
    guard let event = try Self.accountProfile(accountID, db) else { return }
    try events.record(event, subjects: [accountID], at: now, in: db)
  }

  /// The account's ``Binario_Identity_V1_AccountProfileChanged`` as it is now, `nil` when it is gone.
  /// Reads only the four columns it needs, not `fetchAccount`'s whole row: migration v8 runs it,
  /// and must keep working when a later migration adds a column to that row.
  static func accountProfile(_ accountID: String, _ db: Database) throws -> Binario_Identity_V1_AccountProfileChanged? {
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT first_name, last_name, phone, phone_verified FROM account WHERE id = ?"),
        arguments: [accountID]
      )
    else { return nil }
    let first: String = row["first_name"]
    let last: String = row["last_name"]
    let phone: String = row["phone"]
    let verified: Bool = row["phone_verified"]
    let card = try fetchPaymentMethods(db, where: "account_id = ? AND is_default = 1", accountID).first
    return Binario_Identity_V1_AccountProfileChanged.with {
      $0.userID = accountID
      $0.displayName = last.isEmpty ? first : "\(first) \(last)"
      $0.verifiedPhone = verified ? phone : ""
      if let card {
        $0.defaultPaymentMethodID = card.id
        $0.defaultCardProviderToken = card.providerToken
        $0.defaultCardLast4 = card.last4
      }
    }
  }
}
