import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func verifyPhone(
    request: Binario_Identity_V1_VerifyPhoneRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_VerifyPhoneResponse {
    let account = try await domain.verifyPhone(userID: try caller().userID, code: request.code)
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func resendPhoneCode(
    request: Binario_Identity_V1_ResendPhoneCodeRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ResendPhoneCodeResponse {
    try await domain.resendPhoneCode(userID: try caller().userID)
    return .init()
  }
}
