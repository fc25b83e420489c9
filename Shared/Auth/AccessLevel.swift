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

  /// Whether this level needs a signed-in caller at all.
  public var requiresSignIn: Bool {
    self != .public
  }

  /// Whether a caller with `roles` is let in. `roles` is `nil` for a caller who is not signed in.
  public func admits(roles: Set<Role>?) -> Bool {
    switch self {
    case .public: return true
    case .signedIn: return roles != nil
    case .driver: return roles?.contains(.driver) ?? false
    case .admin: return roles?.contains(.admin) ?? false
    case .inspector: return roles.map { !$0.isDisjoint(with: [.inspector, .admin]) } ?? false
    }
  }
}
