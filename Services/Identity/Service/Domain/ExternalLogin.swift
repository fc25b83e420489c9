import Foundation

/// An account's link to an external sign-in provider: the provider's stable id for the person
/// (`sub`), so the account is found again even after either side changes its email.
public struct ExternalLogin: Sendable, Hashable {
  /// `google`.
  public var provider: String
  public var subject: String
  public var accountID: String
  public var createdAt: Date

  public init(provider: String, subject: String, accountID: String, createdAt: Date) {
    self.provider = provider
    self.subject = subject
    self.accountID = accountID
    self.createdAt = createdAt
  }
}
