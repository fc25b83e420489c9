import BinarioProto
import GRPCCore

// Internal methods: the interceptor lets only the services named in MethodAccessPolicy.identity
// reach them, on their certificates; there is no signed-in caller.
extension IdentityHandler {
  public func lookupAccounts(
    request: Binario_Identity_V1_LookupAccountsRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_LookupAccountsResponse {
    let accounts = try await domain.lookupAccounts(ids: request.userIds, emails: request.emails)
    return .with { $0.accounts = accounts.map(Binario_Identity_V1_AccountRecord.init) }
  }

  public func areFriends(
    request: Binario_Identity_V1_AreFriendsRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_AreFriendsResponse {
    let friends = try await domain.areFriends(request.userID, request.otherUserID)
    return .with { $0.friends = friends }
  }

  public func isPendingContact(
    request: Binario_Identity_V1_IsPendingContactRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_IsPendingContactResponse {
    let pending = try await domain.isPendingContact(userID: request.userID, email: request.email)
    return .with { $0.pendingContact = pending }
  }

  public func sendFriendRequestFor(
    request: Binario_Identity_V1_SendFriendRequestForRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_SendFriendRequestForResponse {
    let friends = try await domain.sendFriendRequest(for: request.userID, to: request.otherUserID)
    return .with { $0.friends = friends }
  }

  public func getDefaultPaymentMethod(
    request: Binario_Identity_V1_GetDefaultPaymentMethodRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_GetDefaultPaymentMethodResponse {
    let method = try await domain.paymentMethodOnFile(userID: request.userID, paymentMethodID: request.paymentMethodID)
    return .with { response in
      if let method {
        response.paymentMethod = .with {
          $0.paymentMethod = Binario_Identity_V1_PaymentMethod(method)
          $0.providerToken = method.providerToken
        }
      }
    }
  }
}
