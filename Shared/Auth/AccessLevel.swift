/// Who may call a method through the gateway.
public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
  /// Anyone, signed in or not.
  case `public`
  /// Any signed-in account.
  case signedIn
  /// A signed-in account with the driver role (admins are not implicitly drivers).
  case driver
  /// A signed-in account with the admin role.
  case admin
  /// A signed-in account with the inspector role, or an admin.
  case inspector
  /// A sensor board, with its device token (`authorization: Device bdt_…`) and nothing else: no
  /// account's session reaches these methods, and a device token reaches nothing but them. The
  /// gateway checks only the token's shape and forwards it (``DeviceCredential``); the service
  /// that issued it checks it against the hash it keeps.
  case device

  /// Whether this level needs a signed-in caller at all.
  public var requiresSignIn: Bool {
    self != .public && self != .device
  }

  /// Whether a caller with `roles` is let in. `roles` is `nil` for a caller who is not signed in.
  /// Nobody is let into a ``device`` method by their roles: only a device token opens it.
  public func admits(roles: Set<Role>?) -> Bool {
    switch self {
    case .public: return true
    case .signedIn: return roles != nil
    case .driver: return roles?.contains(.driver) ?? false
    case .admin: return roles?.contains(.admin) ?? false
    case .inspector: return roles.map { !$0.isDisjoint(with: [.inspector, .admin]) } ?? false
    case .device: return false
    }
  }
}
