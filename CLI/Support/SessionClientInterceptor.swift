import BinarioAuth
import GRPCCore
import Synchronization

/// Attaches the signed-in session's access token to every call whose method needs an account
/// (signed-in, driver, inspector or admin, as proto/ declares it), refreshed first when it is
/// about to expire. A call that brings its own `authorization` (a board's device token, another
/// session's token) keeps it; public methods go without. Nobody signed in: the call fails with
/// ``CLIError`` before it leaves.
struct SessionClientInterceptor: ClientInterceptor {
  let session: SessionSource

  func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingClientRequest<Input>,
    context: ClientContext,
    next: (StreamingClientRequest<Input>, ClientContext) async throws -> StreamingClientResponse<Output>
  ) async throws -> StreamingClientResponse<Output> {
    var request = request
    let level = MethodAccessPolicy.all.access(for: context.descriptor)?.level
    if request.metadata[stringValues: "authorization"].first(where: { _ in true }) == nil,
      let level, level != .public, level != .device
    {
      request.metadata.add(contentsOf: try await self.session.bearer())
    }
    return try await next(request, context)
  }
}

/// The session one command's calls act for: the ``GatewayConnection`` it signs in through, known once the
/// client exists.
final class SessionSource: Sendable {
  private let gateway = Mutex<GatewayConnection?>(nil)

  func attach(_ gateway: GatewayConnection) {
    self.gateway.withLock { $0 = gateway }
  }

  func bearer() async throws -> Metadata {
    guard let gateway = self.gateway.withLock({ $0 }) else { throw CLIError("the gateway connection is not ready") }
    return try await gateway.signedIn()
  }
}
