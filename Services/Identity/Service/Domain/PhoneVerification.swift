import Foundation

/// A code sent by SMS to an account's phone and not entered yet. One per account: a new one
/// replaces the previous one, and entering it (or changing the phone) ends it.
public struct PhoneVerification: Sendable, Hashable {
  public var accountID: String
  /// The phone the code verifies.
  public var phone: String
  /// ``SecretToken/hash(_:context:)`` of the code, with the account id and phone as context.
  public var codeHash: String
  public var sentAt: Date
  public var expiresAt: Date

  public init(accountID: String, phone: String, codeHash: String, sentAt: Date, expiresAt: Date) {
    self.accountID = accountID
    self.phone = phone
    self.codeHash = codeHash
    self.sentAt = sentAt
    self.expiresAt = expiresAt
  }
}
