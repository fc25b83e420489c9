import BinarioProto
import GRPCCore

extension IdentityHandler {
  public func getMe(
    request: Binario_Identity_V1_GetMeRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_GetMeResponse {
    let account = try await domain.me(userID: try caller().userID)
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func updateMe(
    request: Binario_Identity_V1_UpdateMeRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_UpdateMeResponse {
    let changes = ProfileChanges(request)
    let account = try await domain.updateMe(userID: try caller().userID, changes: changes)
    return .with { $0.profile = Binario_Identity_V1_Profile(account) }
  }

  public func changePassword(
    request: Binario_Identity_V1_ChangePasswordRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ChangePasswordResponse {
    let caller = try caller()
    try await domain.changePassword(
      userID: caller.userID,
      sessionID: caller.sessionID,
      current: request.currentPassword,
      new: request.newPassword
    )
    return .init()
  }

  public func changeEmail(
    request: Binario_Identity_V1_ChangeEmailRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ChangeEmailResponse {
    try await domain.changeEmail(userID: try caller().userID, password: request.password, newEmail: request.newEmail)
    return .init()
  }

  public func deleteMe(
    request: Binario_Identity_V1_DeleteMeRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_DeleteMeResponse {
    try await domain.deleteMe(userID: try caller().userID, password: request.password)
    return .init()
  }
}
