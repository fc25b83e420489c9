import BinarioAuth
import BinarioDomain
import BinarioProto
import Foundation
import SwiftProtobuf

// Translations between identity's proto messages and its domain values.

extension Gender {
  /// `nil` for unspecified or unknown values.
  init?(proto: Binario_Identity_V1_Gender) {
    switch proto {
    case .female: self = .female
    case .male: self = .male
    case .other: self = .other
    case .preferNotToSay: self = .preferNotToSay
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }

  var proto: Binario_Identity_V1_Gender {
    switch self {
    case .female: return .female
    case .male: return .male
    case .other: return .other
    case .preferNotToSay: return .preferNotToSay
    }
  }
}

extension ContactChannel {
  /// `nil` for unspecified or unknown values.
  init?(proto: Binario_Identity_V1_ContactChannel) {
    switch proto {
    case .sms: self = .sms
    case .whatsapp: self = .whatsApp
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }

  var proto: Binario_Identity_V1_ContactChannel {
    switch self {
    case .sms: return .sms
    case .whatsApp: return .whatsapp
    }
  }
}

extension OutboxChannel {
  var proto: Binario_Identity_V1_OutboxChannel {
    switch self {
    case .email: return .email
    case .sms: return .sms
    case .whatsApp: return .whatsapp
    }
  }
}

extension Role {
  /// `nil` for unspecified or unknown values.
  init?(proto: Binario_Identity_V1_Role) {
    switch proto {
    case .passenger: self = .passenger
    case .driver: self = .driver
    case .admin: self = .admin
    case .inspector: self = .inspector
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }

  var proto: Binario_Identity_V1_Role {
    switch self {
    case .passenger: return .passenger
    case .driver: return .driver
    case .admin: return .admin
    case .inspector: return .inspector
    }
  }
}

extension Binario_Identity_V1_Profile {
  init(_ account: Account) {
    self.init()
    self.userID = account.id
    self.email = account.email
    self.emailConfirmed = account.emailConfirmed
    self.pendingEmail = account.pendingEmail ?? ""
    self.firstName = account.firstName
    self.lastName = account.lastName
    self.phone = account.phone
    self.birthDate = account.birthDate
    self.gender = account.gender?.proto ?? .unspecified
    self.roles = account.roles.sorted().map(\.proto)
    self.createdAt = Google_Protobuf_Timestamp(date: account.createdAt)
    self.phoneVerified = account.phoneVerified
    self.disabled = account.disabled
    self.passwordSet = account.hasPassword
    self.linkedProviders = account.linkedProviders
    self.language = account.language.rawValue
  }
}

extension Binario_Identity_V1_AccountRecord {
  init(_ account: Account) {
    self.init()
    self.userID = account.id
    self.displayName = account.displayName
    self.email = account.email
    self.roles = account.roles.sorted().map(\.proto)
    self.verifiedPhone = account.verifiedPhone ?? ""
    self.disabled = account.disabled
    self.language = account.language.rawValue
  }
}

extension Binario_Identity_V1_PaymentMethod {
  /// What a user sees of a card: never its provider token.
  init(_ method: PaymentMethod) {
    self.init()
    self.paymentMethodID = method.id
    self.brand = method.brand
    self.last4 = method.last4
    self.expiryMonth = UInt32(method.expiryMonth)
    self.expiryYear = UInt32(method.expiryYear)
    self.isDefault = method.isDefault
    self.createdAt = Google_Protobuf_Timestamp(date: method.createdAt)
  }
}

extension Binario_Identity_V1_PendingContact {
  init(_ contact: PendingContact) {
    self.init()
    self.contactID = contact.id
    self.name = contact.name
    self.email = contact.email
    self.createdAt = Google_Protobuf_Timestamp(date: contact.createdAt)
  }
}

extension Binario_Identity_V1_AuditEntry {
  init(_ entry: AuditEntry) {
    self.init()
    self.entryID = entry.id
    self.actorUserID = entry.actorID
    self.actorEmail = entry.actorEmail
    self.action = entry.action.rawValue
    self.targetUserID = entry.targetID
    self.targetEmail = entry.targetEmail
    self.detail = entry.detail
    self.at = Google_Protobuf_Timestamp(date: entry.at)
  }
}

extension Binario_Identity_V1_UserSummary {
  init(_ summary: UserSummary) {
    self.init()
    self.userID = summary.userID
    self.email = summary.email
    self.firstName = summary.firstName
    self.lastName = summary.lastName
  }
}

extension Binario_Identity_V1_TokenPair {
  init(_ tokens: TokenPair) {
    self.init()
    self.accessToken = tokens.accessToken
    self.accessTokenExpiresAt = Google_Protobuf_Timestamp(date: tokens.accessTokenExpiresAt)
    self.refreshToken = tokens.refreshToken
    self.refreshTokenExpiresAt = Google_Protobuf_Timestamp(date: tokens.refreshTokenExpiresAt)
    self.userID = tokens.userID
    self.roles = tokens.roles.sorted().map(\.proto)
  }
}

extension Binario_Identity_V1_FriendRequest {
  init(_ request: FriendRequest) {
    self.init()
    self.requestID = request.id
    self.from = Binario_Identity_V1_UserSummary(request.from)
    self.to = Binario_Identity_V1_UserSummary(request.to)
    self.createdAt = Google_Protobuf_Timestamp(date: request.createdAt)
  }
}

extension Binario_Identity_V1_EmergencyContact {
  init(_ contact: EmergencyContact) {
    self.init()
    self.contactID = contact.id
    self.name = contact.name
    self.phone = contact.phone
    self.channel = contact.channel.proto
    self.language = contact.language?.rawValue ?? ""
  }
}

extension Binario_Identity_V1_EmergencyAlertMessage {
  init(_ alert: EmergencyAlert) {
    self.init()
    self.recipientName = alert.recipientName
    self.recipientPhone = alert.recipientPhone
    self.channel = alert.channel.proto
    self.text = alert.text
    self.mapsLink = alert.mapsLink
    self.deepLink = alert.deepLink
  }
}

extension Binario_Identity_V1_OutboxMessage {
  init(_ message: OutboxMessage) {
    self.init()
    self.messageID = message.id
    self.channel = message.channel.proto
    self.recipient = message.recipient
    self.subject = message.subject
    self.body = message.body
    self.createdAt = Google_Protobuf_Timestamp(date: message.createdAt)
  }
}

extension Binario_Identity_V1_SigningKey {
  init(_ key: PublishedSigningKey) {
    self.init()
    self.keyID = key.id
    self.algorithm = key.algorithm
    self.publicKey = key.publicKey
    self.createdAt = Google_Protobuf_Timestamp(date: key.createdAt)
  }
}

extension PersonalDetails {
  init(
    email: String,
    password: String,
    firstName: String,
    lastName: String,
    phone: String,
    birthDate: String,
    gender: Binario_Identity_V1_Gender,
    language: String = Language.fallback.rawValue
  ) {
    self.init(
      email: email,
      password: password,
      firstName: firstName,
      lastName: lastName,
      phone: phone,
      birthDate: birthDate,
      gender: Gender(proto: gender),
      language: language
    )
  }
}

extension AccountReference {
  init?(_ selector: Binario_Identity_V1_AccountSelector) {
    switch selector.account {
    case .userID(let id): self = .id(id)
    case .email(let email): self = .email(email)
    case nil: return nil
    }
  }
}

/// The optional profile fields `UpdateMeRequest` and `UpdateAccountRequest` share.
protocol ProfileChangeRequest {
  var hasFirstName: Bool { get }
  var firstName: String { get }
  var hasLastName: Bool { get }
  var lastName: String { get }
  var hasPhone: Bool { get }
  var phone: String { get }
  var hasBirthDate: Bool { get }
  var birthDate: String { get }
  var hasGender: Bool { get }
  var gender: Binario_Identity_V1_Gender { get }
  var hasLanguage: Bool { get }
  var language: String { get }
}

extension Binario_Identity_V1_UpdateMeRequest: ProfileChangeRequest {}
extension Binario_Identity_V1_UpdateAccountRequest: ProfileChangeRequest {}

extension ProfileChanges {
  /// The fields the request sets; an unspecified gender removes it.
  init(_ request: some ProfileChangeRequest) {
    self.init(
      firstName: request.hasFirstName ? request.firstName : nil,
      lastName: request.hasLastName ? request.lastName : nil,
      phone: request.hasPhone ? request.phone : nil,
      birthDate: request.hasBirthDate ? request.birthDate : nil,
      gender: request.hasGender ? .some(Gender(proto: request.gender)) : nil,
      language: request.hasLanguage ? request.language : nil
    )
  }
}

/// The admin requests that name an account with an `AccountSelector`.
protocol AccountTargetingRequest {
  var hasAccount: Bool { get }
  var account: Binario_Identity_V1_AccountSelector { get }
}

extension AccountTargetingRequest {
  /// The account named, or `nil` when the request names none (the domain says which field).
  var accountReference: AccountReference? {
    hasAccount ? AccountReference(account) : nil
  }
}

extension Binario_Identity_V1_GrantRoleRequest: AccountTargetingRequest {}
extension Binario_Identity_V1_RevokeRoleRequest: AccountTargetingRequest {}
extension Binario_Identity_V1_GetAccountRequest: AccountTargetingRequest {}
extension Binario_Identity_V1_UpdateAccountRequest: AccountTargetingRequest {}
extension Binario_Identity_V1_DisableAccountRequest: AccountTargetingRequest {}
extension Binario_Identity_V1_EnableAccountRequest: AccountTargetingRequest {}
extension Binario_Identity_V1_DeleteDriverRequest: AccountTargetingRequest {}
