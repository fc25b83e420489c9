import BinarioDomain
import BinarioPayments
import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func addPaymentMethod(
    request: Binario_Identity_V1_AddPaymentMethodRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_AddPaymentMethodResponse {
    let card = PaymentCard(
      number: request.cardNumber,
      expiryMonth: Int(request.expiryMonth),
      expiryYear: Int(request.expiryYear),
      securityCode: request.securityCode
    )
    let userID = try caller().userID
    let method = try await domain.addPaymentMethod(
      userID: userID,
      card: card,
      makeDefault: request.makeDefault,
      key: try IdempotencyKey(caller: userID, key: request.idempotencyKey)
    )
    return .with { $0.paymentMethod = Binario_Identity_V1_PaymentMethod(method) }
  }

  public func listPaymentMethods(
    request: Binario_Identity_V1_ListPaymentMethodsRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ListPaymentMethodsResponse {
    let methods = try await domain.paymentMethods(userID: try caller().userID)
    return .with { $0.paymentMethods = methods.map(Binario_Identity_V1_PaymentMethod.init) }
  }

  public func removePaymentMethod(
    request: Binario_Identity_V1_RemovePaymentMethodRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RemovePaymentMethodResponse {
    try await domain.removePaymentMethod(userID: try caller().userID, paymentMethodID: request.paymentMethodID)
    return .init()
  }

  public func setDefaultPaymentMethod(
    request: Binario_Identity_V1_SetDefaultPaymentMethodRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_SetDefaultPaymentMethodResponse {
    let method = try await domain.setDefaultPaymentMethod(
      userID: try caller().userID,
      paymentMethodID: request.paymentMethodID
    )
    return .with { $0.paymentMethod = Binario_Identity_V1_PaymentMethod(method) }
  }
}
