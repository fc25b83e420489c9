import BinarioProto
import BinarioTestSupport
import BinarioTransport
import GRPCCore

/// Someone using the suite through the gateway: their account, and their tokens, renewed by
/// signing in again when the gateway refuses them (a long run outlives an access token).
actor Person {
  nonisolated let email: String
  nonisolated let password: String
  nonisolated let userID: String
  private let identity: IdentityClient
  private var tokens: Binario_Identity_V1_TokenPair

  init(email: String, password: String, tokens: Binario_Identity_V1_TokenPair, identity: IdentityClient) {
    self.email = email
    self.password = password
    self.userID = tokens.userID
    self.tokens = tokens
    self.identity = identity
  }

  func metadata() -> Metadata { bearer(tokens) }

  func signIn() async throws {
    tokens = try await identity.login(
      .with {
        $0.email = email
        $0.password = password
      },
      options: Acknowledgement.options
    ).tokens
  }
}
