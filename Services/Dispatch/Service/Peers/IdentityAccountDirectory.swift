import BinarioDomain
import BinarioProto
import BinarioServiceKit
import GRPCCore

/// ``AccountDirectory`` on identity's internal `LookupAccounts` and `GetDefaultPaymentMethod`,
/// over the Binario transport with dispatch's certificate.
public struct IdentityAccountDirectory: AccountDirectory {
  let identity: IdentityServiceClient

  public init(identity: IdentityServiceClient) {
    self.identity = identity
  }

  public func accounts(_ userIDs: [String]) async throws -> [AccountSummary] {
    try await identity.accounts(ids: userIDs).map {
      AccountSummary(
        userID: $0.userID,
        displayName: $0.displayName,
        hasVerifiedPhone: !$0.verifiedPhone.isEmpty,
        isDriver: $0.roles.contains(.driver),
        disabled: $0.disabled
      )
    }
  }

  public func userIDs(emails: [String]) async throws -> [String] {
    guard !emails.isEmpty else { return [] }
    return try await identity.lookupAccounts(.with { $0.emails = emails }).accounts.map(\.userID)
  }

  public func defaultCard(userID: String) async throws -> CardOnFile? {
    do {
      let response = try await identity.getDefaultPaymentMethod(.with { $0.userID = userID })
      guard response.hasPaymentMethod else { return nil }
      return CardOnFile(token: response.paymentMethod.providerToken, last4: response.paymentMethod.paymentMethod.last4)
    } catch let error as RPCError where error.code == .notFound {
      throw ServiceError.notFound("your account no longer exists")
    }
  }
}
