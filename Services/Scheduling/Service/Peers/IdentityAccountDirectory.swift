import BinarioProto
import BinarioServiceKit
import GRPCCore

/// ``AccountDirectory`` on identity's internal methods, over the Binario transport with this
/// process's certificate.
public struct IdentityAccountDirectory: AccountDirectory {
  let identity: IdentityServiceClient

  public init(identity: IdentityServiceClient) {
    self.identity = identity
  }

  public func accounts(ids userIDs: [String]) async throws -> [AccountContact] {
    try await identity.accounts(ids: userIDs).map(AccountContact.init)
  }

  public func account(email: String) async throws -> AccountContact? {
    try await identity.lookupAccounts(.with { $0.emails = [email] }).accounts.first.map(AccountContact.init)
  }

  public func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool {
    try await identity.areFriends(
      .with {
        $0.userID = userID
        $0.otherUserID = otherUserID
      }
    ).friends
  }

  public func isPendingContact(userID: String, email: String) async throws -> Bool {
    try await identity.isPendingContact(
      .with {
        $0.userID = userID
        $0.email = email
      }
    ).pendingContact
  }
}

extension AccountContact {
  init(_ record: Binario_Identity_V1_AccountRecord) {
    self.init(
      userID: record.userID,
      displayName: record.displayName,
      email: record.email,
      verifiedPhone: record.verifiedPhone
    )
  }
}
