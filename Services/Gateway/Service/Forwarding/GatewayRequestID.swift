import BinarioServiceKit

/// The request id the gateway gives every call: the client's `x-request-id` (or `request-id`)
/// when it is sane, a fresh random one otherwise. It travels upstream under both keys (services'
/// ServiceKit logs `request-id`), comes back to the client as `x-request-id`, and is on every log
/// line about the call.
enum GatewayRequestID {
  /// The key the gateway reads, forwards and answers with.
  static let key = "x-request-id"
  /// The key ServiceKit's logging interceptor reads in services.
  static let serviceKitKey = "request-id"
  static let maximumLength = 128

  /// The client's id if sane (1–128 characters of letters, digits, `-`, `_`, `.`, `:`), else a new one.
  static func take(clientValue: String?) -> String {
    if let clientValue, self.isSane(clientValue) { return clientValue }
    return RequestID.generate()
  }

  static func isSane(_ value: String) -> Bool {
    let utf8 = value.utf8
    guard !utf8.isEmpty, utf8.count <= self.maximumLength else { return false }
    return utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
        UInt8(ascii: "0") ... UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
        UInt8(ascii: ":"):
        return true
      default:
        return false
      }
    }
  }
}
