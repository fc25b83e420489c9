import BinarioProto
import Foundation
import SwiftProtobuf

extension Binario_Identity_V1_Role {
  var displayName: String {
    switch self {
    case .passenger: return "passenger"
    case .driver: return "driver"
    case .admin: return "admin"
    case .inspector: return "inspector"
    default: return "unknown"
    }
  }

  init?(displayName: String) {
    switch displayName.lowercased() {
    case "passenger": self = .passenger
    case "driver": self = .driver
    case "admin": self = .admin
    case "inspector": self = .inspector
    default: return nil
    }
  }
}

extension Binario_Identity_V1_Gender {
  var displayName: String {
    switch self {
    case .female: return "female"
    case .male: return "male"
    case .other: return "other"
    case .preferNotToSay: return "prefer-not-to-say"
    default: return "unspecified"
    }
  }

  init?(displayName: String) {
    switch displayName.lowercased() {
    case "female", "f": self = .female
    case "male", "m": self = .male
    case "other": self = .other
    case "prefer-not-to-say": self = .preferNotToSay
    default: return nil
    }
  }
}

extension Binario_Identity_V1_ContactChannel {
  var displayName: String {
    switch self {
    case .sms: return "sms"
    case .whatsapp: return "whatsapp"
    default: return "unspecified"
    }
  }

  init?(displayName: String) {
    switch displayName.lowercased() {
    case "sms": self = .sms
    case "whatsapp": self = .whatsapp
    default: return nil
    }
  }
}

extension Binario_Identity_V1_OutboxChannel {
  var displayName: String {
    switch self {
    case .email: return "email"
    case .sms: return "sms"
    case .whatsapp: return "whatsapp"
    default: return "unspecified"
    }
  }
}

/// How the client prints what the platform answers.
enum Print {
  static func profile(_ profile: Binario_Identity_V1_Profile) {
    var lines = [
      "user id:    \(profile.userID)",
      "email:      \(profile.email)\(profile.emailConfirmed ? "" : " (not confirmed)")",
    ]
    if !profile.pendingEmail.isEmpty { lines.append("new email:  \(profile.pendingEmail) (waiting for confirmation)") }
    let phone = profile.phone.isEmpty ? "-" : profile.phone + (profile.phoneVerified ? " (verified)" : " (not verified)")
    lines += [
      "name:       \(Self.name(profile.firstName, profile.lastName))",
      "phone:      \(phone)",
      "born:       \(profile.birthDate.isEmpty ? "-" : profile.birthDate)",
      "gender:     \(profile.gender.displayName)",
      "roles:      \(profile.roles.map(\.displayName).joined(separator: ", "))",
      "since:      \(Self.date(profile.createdAt))",
    ]
    if !profile.linkedProviders.isEmpty { lines.append("sign-in:    \(profile.linkedProviders.joined(separator: ", "))") }
    if !profile.passwordSet { lines.append("password:   none set (reset one with 'binario password forgot')") }
    if profile.disabled { lines.append("status:     DISABLED by an administrator") }
    print(lines.joined(separator: "\n"))
  }

  static func user(_ user: Binario_Identity_V1_UserSummary) -> String {
    "\(Self.name(user.firstName, user.lastName)) <\(user.email)>  [\(user.userID)]"
  }

  /// First and last name, without a dangling space when there is no last name.
  static func name(_ first: String, _ last: String) -> String {
    last.isEmpty ? first : "\(first) \(last)"
  }

  static func contact(_ contact: Binario_Identity_V1_EmergencyContact) {
    print("\(contact.contactID)  \(contact.name)  \(contact.phone)  via \(contact.channel.displayName)")
  }

  static func card(_ method: Binario_Identity_V1_PaymentMethod) -> String {
    let expiry = String(format: "%02d/%04d", method.expiryMonth, method.expiryYear)
    return "\(method.paymentMethodID)  \(method.brand) ending \(method.last4)  expires \(expiry)"
      + (method.isDefault ? "  (default)" : "")
  }

  static func date(_ timestamp: Google_Protobuf_Timestamp) -> String {
    timestamp.date.formatted(.iso8601)
  }
}
