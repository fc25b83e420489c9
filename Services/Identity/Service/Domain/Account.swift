import BinarioAuth
import Foundation

/// An account as the rest of identity sees it (never with its password hash).
public struct Account: Sendable, Hashable {
  public var id: String
  /// Lower-case, trimmed.
  public var email: String
  public var emailConfirmed: Bool
  /// A new address waiting for confirmation (ChangeEmail), if any.
  public var pendingEmail: String?
  public var firstName: String
  public var lastName: String
  /// E.164, or empty for the bootstrap admin.
  public var phone: String
  /// `YYYY-MM-DD`, or empty for the bootstrap admin.
  public var birthDate: String
  /// `nil` for the bootstrap admin, who never stated one.
  public var gender: Gender?
  public var roles: Set<Role>
  public var createdAt: Date

  public init(
    id: String,
    email: String,
    emailConfirmed: Bool,
    pendingEmail: String?,
    firstName: String,
    lastName: String,
    phone: String,
    birthDate: String,
    gender: Gender?,
    roles: Set<Role>,
    createdAt: Date
  ) {
    self.id = id
    self.email = email
    self.emailConfirmed = emailConfirmed
    self.pendingEmail = pendingEmail
    self.firstName = firstName
    self.lastName = lastName
    self.phone = phone
    self.birthDate = birthDate
    self.gender = gender
    self.roles = roles
    self.createdAt = createdAt
  }

  /// What other users may see of this account (a friend, a friend request).
  public var summary: UserSummary {
    UserSummary(userID: id, email: email, firstName: firstName, lastName: lastName)
  }
}

/// The part of an account another user may see.
public struct UserSummary: Sendable, Hashable {
  public var userID: String
  public var email: String
  public var firstName: String
  public var lastName: String

  public init(userID: String, email: String, firstName: String, lastName: String) {
    self.userID = userID
    self.email = email
    self.firstName = firstName
    self.lastName = lastName
  }
}
