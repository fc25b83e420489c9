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

  public func loginWithGoogle(
    request: Binario_Identity_V1_LoginWithGoogleRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_LoginWithGoogleResponse {
    let (tokens, created) = try await domain.loginWithGoogle(idToken: request.idToken)
    return .with {
      $0.tokens = Binario_Identity_V1_TokenPair(tokens)
      $0.created = created
    }
  }
}
