import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func requestPasswordReset(
    request: Binario_Identity_V1_RequestPasswordResetRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RequestPasswordResetResponse {
    try await domain.requestPasswordReset(email: request.email)
    return .init()
  }

  public func resetPassword(
    request: Binario_Identity_V1_ResetPasswordRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ResetPasswordResponse {
    try await domain.resetPassword(token: request.token, newPassword: request.newPassword)
    return .init()
  }
}
