import BinarioAuth
import BinarioDomain
import Foundation

/// An account as the rest of identity sees it (never with its password hash).
public struct Account: Sendable, Hashable {
  public var id: String
  /// Lower-case, trimmed.
  public var email: String
  public var emailConfirmed: Bool
  /// A new address waiting for confirmation (ChangeEmail), if any.
  public var pendingEmail: String?
  /// The name shown to others (required).
  public var firstName: String
  /// Empty when not given (optional, as are phone, birth date and gender).
  public var lastName: String
  /// E.164, or empty when not given.
  public var phone: String
  /// Whether ``phone`` was verified with the code sent to it.
  public var phoneVerified: Bool
  /// `YYYY-MM-DD`, or empty when not given.
  public var birthDate: String
  /// `nil` when not given.
  public var gender: Gender?
  public var roles: Set<Role>
  public var createdAt: Date
  /// Disabled by an admin: cannot sign in.
  public var disabled: Bool
  /// `false` for an account made by signing in with Google that never set a password.
  public var hasPassword: Bool
  /// The external providers linked for signing in (`google`), sorted.
  public var linkedProviders: [String]
  /// The language of everything the suite writes to this person (emails, texts, notifications).
  public var language: Language

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
    createdAt: Date,
    phoneVerified: Bool = false,
    disabled: Bool = false,
    hasPassword: Bool = true,
    linkedProviders: [String] = [],
    language: Language = .fallback
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
    self.phoneVerified = phoneVerified
    self.disabled = disabled
    self.hasPassword = hasPassword
    self.linkedProviders = linkedProviders
    self.language = language
  }

  /// The first and last name, as others see it.
  public var displayName: String {
    lastName.isEmpty ? firstName : "\(firstName) \(lastName)"
  }

  /// The phone, if verified.
  public var verifiedPhone: String? {
    phoneVerified && !phone.isEmpty ? phone : nil
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
