import BinarioDomain
import BinarioProto
import BinarioServiceKit
import GRPCCore

/// ``AccountLookup`` on identity's internal methods, over the Binario transport with ticketing's
/// certificate.
public struct IdentityAccounts: AccountLookup {
  let identity: IdentityServiceClient

  public init(identity: IdentityServiceClient) {
    self.identity = identity
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
      throw ServiceError.notFound(
        paymentMethodID.isEmpty ? error.message : "no payment method \(paymentMethodID) among your cards"
      )
    }
  }

  public func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool {
    try await identity.areFriends(
      .with {
        $0.userID = userID
        $0.otherUserID = otherUserID
      }
    ).friends
  }

  public func names(of userIDs: [String]) async throws -> [String: String] {
    Dictionary(
      try await identity.accounts(ids: userIDs).map { ($0.userID, $0.displayName) },
      uniquingKeysWith: { first, _ in first }
    )
  }
}
