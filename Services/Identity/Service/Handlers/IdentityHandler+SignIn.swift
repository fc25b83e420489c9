import BinarioAuth
import BinarioProto
import GRPCCore
import SwiftProtobuf

extension IdentityHandler {
  public func login(
    request: Binario_Identity_V1_LoginRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_LoginResponse {
    let tokens = try await domain.login(email: request.email, password: request.password)
    return .with { $0.tokens = Binario_Identity_V1_TokenPair(tokens) }
  }

  public func refresh(
    request: Binario_Identity_V1_RefreshRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_RefreshResponse {
    let tokens = try await domain.refresh(refreshToken: request.refreshToken)
    return .with { $0.tokens = Binario_Identity_V1_TokenPair(tokens) }
  }

  public func logout(
    request: Binario_Identity_V1_LogoutRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_LogoutResponse {
    let caller = try caller()
    try await domain.logout(userID: caller.userID, sessionID: caller.sessionID)
    return .init()
  }

  public func getSigningKeys(
    request: Binario_Identity_V1_GetSigningKeysRequest,
    context: ServerContext
  ) async throws -> Binario_Identity_V1_GetSigningKeysResponse {
    .with { $0.keys = domain.publishedSigningKeys.map(Binario_Identity_V1_SigningKey.init) }
  }

  /// First every session revoked within the access-token lifetime, then each revocation as it
  /// happens, until the gateway hangs up.
  ///
  /// gRPC signals a cancelled call (the gateway went away, the server is shutting down) through
  /// `context.cancellation`, not by cancelling this task: the feed runs in a task group beside a
  /// wait for that signal, and whichever ends first ends the other.
  public func watchRevocations(
    request: Binario_Identity_V1_WatchRevocationsRequest,
    response: RPCWriter<Binario_Identity_V1_WatchRevocationsResponse>,
    context: ServerContext
  ) async throws {
    let domain = self.domain
    let feed = try await domain.revocationFeed()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        try await response.write(
          .with {
            $0.sessionIds = feed.recentlyRevoked
            $0.rememberUntil = Google_Protobuf_Timestamp(date: feed.rememberUntil)
          }
        )
        for await revocation in feed.updates {
          try await response.write(
            .with {
              $0.sessionIds = revocation.sessionIDs
              $0.rememberUntil = Google_Protobuf_Timestamp(date: domain.rememberUntil(revokedAt: revocation.revokedAt))
            }
          )
        }
      }
      group.addTask {
        try await context.cancellation.cancelled
      }
      defer { group.cancelAll() }
      do {
        try await group.next()
      } catch is CancellationError {
        return
      }
    }
  }
}
