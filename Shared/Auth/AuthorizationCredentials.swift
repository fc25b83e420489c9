/// Reading an `authorization` value: `<scheme> <credentials>`.
public enum AuthorizationCredentials {
  /// The credentials after `scheme` (given in lower case; matched case-insensitively, followed by
  /// exactly one space), with spaces and tabs around them ignored; `nil` for another scheme or
  /// none.
  ///
  /// Works on the UTF-8 bytes: it runs on every signed-in call, and Foundation's
  /// `trimmingCharacters(in:)` and `lowercased()` cost more there than the rest of the check.
  public static func after(scheme: StaticString, in authorization: String) -> String? {
    let bytes = Array(authorization.utf8)
    let prefix = UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount)
    guard bytes.count > prefix.count + 1 else { return nil }
    for (byte, expected) in zip(bytes, prefix) {
      // `| 0x20` lower-cases an ASCII letter.
      guard byte | 0x20 == expected else { return nil }
    }
    guard bytes[prefix.count] == UInt8(ascii: " ") else { return nil }
    func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    var start = prefix.count + 1
    var end = bytes.count
    while start < end, isBlank(bytes[start]) { start += 1 }
    while end > start, isBlank(bytes[end - 1]) { end -= 1 }
    guard start < end else { return nil }
    return String(decoding: bytes[start ..< end], as: UTF8.self)
  }
}
