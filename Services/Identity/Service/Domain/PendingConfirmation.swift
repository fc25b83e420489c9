import Foundation

/// A confirmation code sent to an address and not used yet. One per account: a new one replaces
/// the previous one.
public struct PendingConfirmation: Sendable, Hashable {
  public var accountID: String
  /// The address the code confirms (the account's address, or its pending new one).
  public var email: String
  /// ``SecretToken/hash(_:context:)`` of the code, with the address as context.
  public var codeHash: String
  public var expiresAt: Date
  public var failedAttempts: Int

  public init(accountID: String, email: String, codeHash: String, expiresAt: Date, failedAttempts: Int = 0) {
    self.accountID = accountID
    self.email = email
    self.codeHash = codeHash
    self.expiresAt = expiresAt
    self.failedAttempts = failedAttempts
  }
}
