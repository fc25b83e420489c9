import BinarioAuth
import BinarioDomain
import BinarioProto
import GRPCCore
import SwiftProtobuf

extension IdentityHandler {
  public func register(
    request: Binario_Identity_V1_RegisterRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RegisterResponse {
    let account = try await domain.register(
      PersonalDetails(
        email: request.email,
        password: request.password,
        firstName: request.firstName,
        lastName: request.lastName,
        phone: request.phone,
        birthDate: request.birthDate,
        gender: request.gender,
        // The app's language; else the one the request is read in.
        language: request.language.isEmpty ? RequestLanguage.current.rawValue : request.language
      )
    )
    return .with { $0.userID = account.id }
  }

  public func confirmEmail(
    request: Binario_Identity_V1_ConfirmEmailRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ConfirmEmailResponse {
    try await domain.confirmEmail(email: request.email, code: request.code)
    return .init()
  }

  public func resendConfirmation(
    request: Binario_Identity_V1_ResendConfirmationRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_ResendConfirmationResponse {
    try await domain.resendConfirmation(email: request.email)
    return .init()
  }
}
