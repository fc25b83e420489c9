import BinarioAuth

/// Which accounts an admin lists: a text to match, a role, and a page.
public struct AccountSearch: Sendable, Hashable {
  /// Matched against part of the email, first or last name, case-insensitively; empty: all.
  public var query: String
  public var role: Role?
  public var pageSize: Int
  /// The email of the last account of the previous page; accounts are ordered by email.
  public var afterEmail: String?

  public init(query: String = "", role: Role? = nil, pageSize: Int = 50, afterEmail: String? = nil) {
    self.query = query
    self.role = role
    self.pageSize = pageSize
    self.afterEmail = afterEmail
  }
}

/// One page of accounts, and where the next begins (`nil` on the last page).
public struct AccountPage: Sendable, Hashable {
  public var accounts: [Account]
  public var nextAfterEmail: String?

  public init(accounts: [Account], nextAfterEmail: String?) {
    self.accounts = accounts
    self.nextAfterEmail = nextAfterEmail
  }
}
