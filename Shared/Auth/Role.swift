/// What an account may do beyond being signed in. Carried in access tokens (`roles` claim) and in
/// the `x-roles` metadata the gateway forwards, as the raw values.
public enum Role: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  /// Every account: buys tickets, plans trips, asks for taxis.
  case passenger
  /// Drives a taxi: takes dispatch jobs.
  case driver
  /// Runs the platform: creates drivers, grants and revokes roles, reads the outbox.
  case admin
  /// Checks tickets on board: validates them (a ride used) and reads their state.
  case inspector

  /// Parses raw role names, skipping names this build does not know (a newer identity may add
  /// roles; an unknown one grants nothing here).
  public static func parse<Names: Sequence<String>>(_ names: Names) -> Set<Role> {
    Set(names.compactMap { Role(rawValue: $0.trimmingWhitespace()) })
  }

  public static func < (lhs: Role, rhs: Role) -> Bool {
    lhs.order < rhs.order
  }

  private var order: Int {
    switch self {
    case .passenger: return 0
    case .driver: return 1
    case .admin: return 2
    case .inspector: return 3
    }
  }
}

extension String {
  func trimmingWhitespace() -> String {
    var slice = Substring(self)
    while let first = slice.first, first.isWhitespace { slice.removeFirst() }
    while let last = slice.last, last.isWhitespace { slice.removeLast() }
    return String(slice)
  }
}
