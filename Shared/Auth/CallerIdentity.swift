import GRPCCore

/// The signed-in user on whose behalf a call arrives, as a service sees it.
///
/// The gateway verifies the access token and forwards the result as metadata: ``MetadataKey``.
/// A service believes that metadata only when the connection's certificate identity is the
/// gateway's; from anyone else (a client, another service) it is ignored, so holding a valid
/// service certificate does not let a process act as a user.
///
/// ``AuthorizationServerInterceptor`` binds ``current`` for the handler.
public struct CallerIdentity: Sendable, Hashable {
  /// The metadata the gateway sets (and drops from what clients send).
  public enum MetadataKey {
    /// The account id.
    public static let userID = "x-user-id"
    /// Role names, comma-separated: `passenger,admin`.
    public static let roles = "x-roles"
    /// The session id of the access token.
    public static let sessionID = "x-session-id"

    public static let all = [userID, roles, sessionID]
  }

  public var userID: String
  public var roles: Set<Role>
  /// The session the access token belongs to (empty if the gateway sent none).
  public var sessionID: String

  public init(userID: String, roles: Set<Role>, sessionID: String) {
    self.userID = userID
    self.roles = roles
    self.sessionID = sessionID
  }

  /// The caller of the call being handled, or `nil` when nobody is signed in (or the call did not
  /// come through the gateway). Bound by ``AuthorizationServerInterceptor``.
  @TaskLocal public static var current: CallerIdentity?

  /// ``current``, or `UNAUTHENTICATED` ("sign in first") when nobody is signed in: what a handler
  /// of a signed-in method starts with.
  public static func signedIn() throws -> CallerIdentity {
    guard let caller = current else { throw RPCError(code: .unauthenticated, message: "sign in first") }
    return caller
  }

  /// The bearer of a verified access token (what the gateway forwards).
  public init(token: VerifiedAccessToken) {
    self.init(userID: token.userID, roles: token.roles, sessionID: token.sessionID)
  }

  /// Reads the caller from request metadata, but only if `peerIdentity` (the connection's
  /// certificate identity) is `trustedGateway`. `nil` otherwise, or without a non-empty `x-user-id`.
  public init?(metadata: Metadata, peerIdentity: String?, trustedGateway: String = WorkloadIdentity.gateway) {
    guard let peerIdentity, peerIdentity == trustedGateway else { return nil }
    let userIDs = Array(metadata[stringValues: MetadataKey.userID])
    // Exactly one user id: two would mean someone appended to what the gateway set.
    guard userIDs.count == 1, let userID = userIDs.first, !userID.isEmpty else { return nil }
    let roleNames = metadata[stringValues: MetadataKey.roles].flatMap { $0.split(separator: ",").map(String.init) }
    self.init(
      userID: userID,
      roles: Role.parse(roleNames),
      sessionID: metadata[stringValues: MetadataKey.sessionID].first(where: { _ in true }) ?? ""
    )
  }

  /// Replaces any caller metadata in `metadata` with this caller's (the gateway, forwarding).
  public func write(to metadata: inout Metadata) {
    Self.removeAll(from: &metadata)
    metadata.addString(self.userID, forKey: MetadataKey.userID)
    metadata.addString(self.roles.sorted().map(\.rawValue).joined(separator: ","), forKey: MetadataKey.roles)
    metadata.addString(self.sessionID, forKey: MetadataKey.sessionID)
  }

  /// Drops every caller metadata entry (what a client sent must never reach a service).
  public static func removeAll(from metadata: inout Metadata) {
    for key in MetadataKey.all {
      metadata.removeAllValues(forKey: key)
    }
  }
}
