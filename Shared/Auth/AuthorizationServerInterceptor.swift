import BinarioTransport
import GRPCCore

/// A service's own access check on every call, after the gateway's (defense in depth), and the
/// place where the handler's ``CallerIdentity/current`` is bound.
///
/// For each call it looks up the method in the ``MethodAccessPolicy``, reads the caller (only
/// from the gateway's certificate identity, see ``CallerIdentity``), and refuses with:
/// - `PERMISSION_DENIED` for a method the policy does not list (fail closed), an internal method
///   called by a peer not allowed to, or a caller lacking the role;
/// - `UNAUTHENTICATED` for a method that needs a signed-in caller when there is none, or a device
///   method called without a device token (``DeviceCredential``).
public struct AuthorizationServerInterceptor: ServerInterceptor {
  private let policy: MethodAccessPolicy
  private let trustedGateway: String
  private let peerIdentity: @Sendable (ServerContext) -> String?

  /// - Parameters:
  ///   - policy: The access rules of the methods this server serves.
  ///   - trustedGateway: The certificate identity whose caller metadata is believed.
  ///   - peerIdentity: How to learn the caller's certificate identity; by default the Binario
  ///     transport's (`BinarioServerContext.peerIdentity`). Other transports know none.
  public init(
    policy: MethodAccessPolicy,
    trustedGateway: String = WorkloadIdentity.gateway,
    peerIdentity: @escaping @Sendable (ServerContext) -> String? = { $0.binarioPeerIdentity?.uri }
  ) {
    self.policy = policy
    self.trustedGateway = trustedGateway
    self.peerIdentity = peerIdentity
  }

  /// The caller of a call with `metadata` on a connection from `peer`, if it is allowed to call
  /// the method; throws the `RPCError` to refuse it with otherwise.
  public func authorize(method: MethodDescriptor, metadata: Metadata, peer: String?) throws(RPCError) -> CallerIdentity? {
    try self.authorize(method: method, access: self.policy.access(for: method), metadata: metadata, peer: peer)
  }

  private func authorize(
    method: MethodDescriptor,
    access: MethodAccess?,
    metadata: Metadata,
    peer: String?
  ) throws(RPCError) -> CallerIdentity? {
    guard let access else {
      throw RPCError(code: .permissionDenied, message: "\(method.fullyQualifiedMethod) has no declared access level")
    }
    let caller = CallerIdentity(metadata: metadata, peerIdentity: peer, trustedGateway: self.trustedGateway)
    switch access {
    case .internal(let allowedPeers):
      guard let peer, allowedPeers.contains(peer) else {
        throw RPCError(
          code: .permissionDenied,
          message: "\(method.fullyQualifiedMethod) is an internal method; \(peer ?? "an unidentified peer") may not call it"
        )
      }
    case .level(.device):
      guard DeviceCredential.token(metadata: metadata, peerIdentity: peer, trustedGateway: self.trustedGateway) != nil else {
        throw RPCError(code: .unauthenticated, message: "\(method.method) takes a device token: send authorization: Device <token>")
      }
      return nil
    case .level(let level):
      if level.requiresSignIn && caller == nil {
        throw RPCError(code: .unauthenticated, message: "sign in to call \(method.method)")
      }
      guard level.admits(roles: caller?.roles) else {
        throw RPCError(code: .permissionDenied, message: "\(method.method) needs the \(level.rawValue) role")
      }
    }
    return caller
  }

  /// The caller and device token a call may run with, or the `RPCError` refusing it.
  public func admit(metadata: Metadata, context: ServerContext) throws(RPCError) -> CallAdmission {
    let peer = self.peerIdentity(context)
    let access = self.policy.access(for: context.descriptor)
    let caller = try self.authorize(method: context.descriptor, access: access, metadata: metadata, peer: peer)
    // Only a device method sees a device token.
    let deviceToken =
      access == .level(.device)
      ? DeviceCredential.token(metadata: metadata, peerIdentity: peer, trustedGateway: self.trustedGateway) : nil
    return CallAdmission(caller: caller, deviceToken: deviceToken)
  }

  /// On its own (services run it inside their `ServerCallPipeline`, which binds the same values).
  public func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    let admission = try self.admit(metadata: request.metadata, context: context)
    var response = try await admission.bound { try await next(request, context) }
    // A streaming handler runs in the response's producer, after `next` returned: bind it there too.
    if case .success(var contents) = response.accepted {
      let producer = contents.producer
      contents.producer = { writer in try await admission.bound { try await producer(writer) } }
      response.accepted = .success(contents)
    }
    return response
  }
}

/// Who a call the access check let through runs as: ``CallerIdentity/current`` and
/// ``DeviceCredential/current`` while its handler runs.
public struct CallAdmission: Sendable {
  public var caller: CallerIdentity?
  public var deviceToken: String?

  func bound<Result>(_ body: () async throws -> Result) async throws -> Result {
    try await CallerIdentity.$current.withValue(self.caller) {
      try await DeviceCredential.$current.withValue(self.deviceToken) { try await body() }
    }
  }
}
