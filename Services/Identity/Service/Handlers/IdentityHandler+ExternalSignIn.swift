import BinarioProto
import GRPCCore

extension IdentityHandler {
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
