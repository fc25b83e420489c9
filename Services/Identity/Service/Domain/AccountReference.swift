/// Names an account by id or by address (GrantRole, RevokeRole).
public enum AccountReference: Sendable, Hashable {
  case id(String)
  case email(String)
}
