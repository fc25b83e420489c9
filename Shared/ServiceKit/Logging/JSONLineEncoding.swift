import Logging

/// Appends JSON text to a line being built, as UTF-8 bytes; strings are escaped per RFC 8259.
enum JSONLineEncoding {
  /// Bytes that end a run copied as is: `"`, `\`, control characters, and 0xE2, the lead byte
  /// of U+2028/U+2029 (escaped too, so the line is also valid JavaScript).
  private static let stops: [Bool] = (0 ... 255).map { byte in
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2
  }
  private static let hexDigits = Array("0123456789abcdef".utf8)

  static func appendString(_ string: String, to line: inout [UInt8]) {
    line.append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { bytes in
      var runStart = 0
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        guard Self.stops[Int(byte)] else {
          index += 1
          continue
        }
        if byte == 0xE2 {
          // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence is copied.
          guard index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 else {
            index += 1
            continue
          }
          line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart ..< index]))
          line.append(contentsOf: bytes[index + 2] == 0xA8 ? Array(#"\u2028"#.utf8) : Array(#"\u2029"#.utf8))
          index += 3
          runStart = index
          continue
        }
        line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart ..< index]))
        Self.appendEscape(byte, to: &line)
        index += 1
        runStart = index
      }
      line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart ..< bytes.count]))
    }
    line.append(UInt8(ascii: "\""))
  }

  private static func appendEscape(_ byte: UInt8, to line: inout [UInt8]) {
    line.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""): line.append(UInt8(ascii: "\""))
    case UInt8(ascii: "\\"): line.append(UInt8(ascii: "\\"))
    case UInt8(ascii: "\n"): line.append(UInt8(ascii: "n"))
    case UInt8(ascii: "\r"): line.append(UInt8(ascii: "r"))
    case UInt8(ascii: "\t"): line.append(UInt8(ascii: "t"))
    case 0x08: line.append(UInt8(ascii: "b"))
    case 0x0C: line.append(UInt8(ascii: "f"))
    default:
      line.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
      line.append(Self.hexDigits[Int(byte >> 4)])
      line.append(Self.hexDigits[Int(byte & 0x0F)])
    }
  }

  /// A quoted JSON string of `string`, as text (the human format quotes values with it).
  static func quoted(_ string: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(string.utf8.count + 2)
    self.appendString(string, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  static func appendValue(_ value: Logger.MetadataValue, to line: inout [UInt8]) {
    switch value {
    case .string(let string):
      self.appendString(string, to: &line)
    case .stringConvertible(let convertible):
      self.appendString(convertible.description, to: &line)
    case .array(let elements):
      line.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { line.append(UInt8(ascii: ",")) }
        self.appendValue(element, to: &line)
      }
      line.append(UInt8(ascii: "]"))
    case .dictionary(let dictionary):
      line.append(UInt8(ascii: "{"))
      for (index, entry) in dictionary.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { line.append(UInt8(ascii: ",")) }
        self.appendString(entry.key, to: &line)
        line.append(UInt8(ascii: ":"))
        self.appendValue(entry.value, to: &line)
      }
      line.append(UInt8(ascii: "}"))
    }
  }
}
