/// Who may call one method.
public enum MethodAccess: Sendable, Hashable {
  /// Callers through the gateway, at this level.
  case level(AccessLevel)
  /// Service to service only: callers whose certificate identity is one of `allowedPeers`
  /// (URI SANs such as `spiffe://binario/gateway`). The gateway never forwards clients' calls to
  /// such a method.
  case `internal`(allowedPeers: Set<String>)

  /// The access level, for a method callers reach through the gateway.
  public var level: AccessLevel? {
    if case .level(let level) = self { return level }
    return nil
  }

  /// Whether it is an internal (service to service) method.
  public var isInternal: Bool {
    if case .internal = self { return true }
    return false
  }
}
