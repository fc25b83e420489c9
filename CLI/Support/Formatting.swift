import BinarioProto
import Foundation
import SwiftProtobuf

extension Binario_Identity_V1_Role {
  var displayName: String {
    switch self {
    case .passenger: return "passenger"
    case .driver: return "driver"
    case .admin: return "admin"
    default: return "unknown"
    }
  }

  init?(displayName: String) {
    switch displayName.lowercased() {
    case "passenger": self = .passenger
    case "driver": self = .driver
    case "admin": self = .admin
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
    lines += [
      "name:       \(profile.firstName) \(profile.lastName)",
      "phone:      \(profile.phone)",
      "born:       \(profile.birthDate)",
      "gender:     \(profile.gender.displayName)",
      "roles:      \(profile.roles.map(\.displayName).joined(separator: ", "))",
      "since:      \(Self.date(profile.createdAt))",
    ]
    print(lines.joined(separator: "\n"))
  }

  static func user(_ user: Binario_Identity_V1_UserSummary) -> String {
    "\(user.firstName) \(user.lastName) <\(user.email)>  [\(user.userID)]"
  }

  static func contact(_ contact: Binario_Identity_V1_EmergencyContact) {
    print("\(contact.contactID)  \(contact.name)  \(contact.phone)  via \(contact.channel.displayName)")
  }

  static func date(_ timestamp: Google_Protobuf_Timestamp) -> String {
    timestamp.date.formatted(.iso8601)
  }
}
