import BinarioDomain
import Foundation

/// One composed emergency alert: to whom, how, and the links a phone can open.
public struct EmergencyAlert: Sendable, Hashable {
  public var recipientName: String
  public var recipientPhone: String
  public var channel: ContactChannel
  public var text: String
  /// `https://maps.google.com/?q=<lat>,<lon>`
  public var mapsLink: String
  /// `sms:<phone>?body=<text>` or `https://wa.me/<digits>?text=<text>`, text percent-encoded.
  public var deepLink: String
}

/// Writes emergency alerts: the sender's name (when signed in), their note and position.
public enum EmergencyAlertComposer {
  /// The emergency number an alert goes to when the sender is signed out (or has no contacts).
  public static let emergencyNumber = "112"

  /// The maps link for a position, 6 decimals (about 10 cm).
  public static func mapsLink(latitude: Double, longitude: Double) -> String {
    "https://maps.google.com/?q=\(coordinate(latitude)),\(coordinate(longitude))"
  }

  /// The alert to one recipient, worded in `language` (Italian to the emergency number, whatever
  /// the sender's language: its operators read Italian).
  public static func alert(
    senderName: String?,
    note: String,
    position: (latitude: Double, longitude: Double)?,
    recipientName: String,
    recipientPhone: String,
    channel: ContactChannel,
    language: Language
  ) -> EmergencyAlert {
    let maps = position.map { mapsLink(latitude: $0.latitude, longitude: $0.longitude) } ?? ""
    let language = recipientPhone == emergencyNumber ? .italian : language
    let who: PersonText = senderName.map { name in "EMERGENCY: \(name) needs help." as PersonText } ?? "EMERGENCY: someone needs help."
    let place: PersonText = position == nil ? "Position unknown: their device could not tell it." : "Position: \(maps)"
    let words: PersonText = note.isEmpty ? "\(who) \(place)" : "\(who) Note: \(note) \(place)"
    let text = words.rendered(in: language)
    let encoded = percentEncoded(text)
    let deepLink: String
    switch channel {
    case .sms:
      deepLink = "sms:\(recipientPhone)?body=\(encoded)"
    case .whatsApp:
      deepLink = "https://wa.me/\(recipientPhone.filter(\.isASCIIDigit))?text=\(encoded)"
    }
    return EmergencyAlert(
      recipientName: recipientName,
      recipientPhone: recipientPhone,
      channel: channel,
      text: text,
      mapsLink: maps,
      deepLink: deepLink
    )
  }

  /// Everything but RFC 3986's unreserved characters percent-encoded (UTF-8).
  public static func percentEncoded(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A") ... UInt8(ascii: "Z"), UInt8(ascii: "a") ... UInt8(ascii: "z"),
        UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"):
        result.append(Character(Unicode.Scalar(byte)))
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        result += "%" + (byte < 16 ? "0" + hex : hex)
      }
    }
    return result
  }

  private static func coordinate(_ value: Double) -> String {
    String(format: "%.6f", value)
  }
}
