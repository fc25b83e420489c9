import BinarioDomain
import BinarioProto
import GRPCCore

/// ``BinarioDomain/AccountDirectory`` on identity's internal methods, over the Binario transport
/// with this process's certificate: every service that asks identity about people asks through
/// this one.
public struct IdentityAccountDirectory: AccountDirectory {
  let identity: IdentityServiceClient

  public init(identity: IdentityServiceClient) {
    self.identity = identity
  }

  public func accounts(ids: [String]) async throws -> [PeerAccount] {
    try await identity.accounts(ids: ids).map(PeerAccount.init)
  }

  public func accounts(emails: [String]) async throws -> [PeerAccount] {
    guard !emails.isEmpty else { return [] }
    return try await identity.lookupAccounts(.with { $0.emails = emails }).accounts.map(PeerAccount.init)
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

  public func sendFriendRequest(from userID: String, to otherUserID: String) async throws -> Bool {
    try await identity.sendFriendRequestFor(
      .with {
        $0.userID = userID
        $0.otherUserID = otherUserID
      }
    ).friends
  }

  public func card(userID: String, paymentMethodID: String) async throws -> CardOnFile? {
    do {
      let response = try await identity.getDefaultPaymentMethod(
        .with {
          $0.userID = userID
          $0.paymentMethodID = paymentMethodID
        }
      )
      guard response.hasPaymentMethod else { return nil }
      return CardOnFile(
        paymentMethodID: response.paymentMethod.paymentMethod.paymentMethodID,
        providerToken: response.paymentMethod.providerToken,
        last4: response.paymentMethod.paymentMethod.last4
      )
    } catch let error as RPCError where error.code == .notFound {
      throw ServiceError.notFound(paymentMethodID.isEmpty ? "your account no longer exists" : "no payment method \(paymentMethodID) among your cards")
    }
  }
}

extension PeerAccount {
  init(_ record: Binario_Identity_V1_AccountRecord) {
    self.init(
      userID: record.userID,
      displayName: record.displayName,
      email: record.email,
      verifiedPhone: record.verifiedPhone,
      isDriver: record.roles.contains(.driver),
      disabled: record.disabled,
      language: Language(tag: record.language) ?? .fallback
    )
  }
}

extension ServiceRunnerContext {
  /// Identity's lookups at the `identityAddress` setting, presenting this process's certificate.
  public func accountDirectory() throws -> IdentityAccountDirectory {
    IdentityAccountDirectory(identity: try identityClient())
  }
}
