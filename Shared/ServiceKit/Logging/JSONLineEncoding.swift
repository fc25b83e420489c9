import Logging

/// Appends JSON text to a line being built; strings are escaped per RFC 8259.
enum JSONLineEncoding {
  static func appendString(_ string: String, to line: inout String) {
    line.append("\"")
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": line.append("\\\"")
      case "\\": line.append("\\\\")
      case "\n": line.append("\\n")
      case "\r": line.append("\\r")
      case "\t": line.append("\\t")
      case "\u{08}": line.append("\\b")
      case "\u{0C}": line.append("\\f")
      // Control characters must be escaped; U+2028/U+2029 are, so the line is also valid JavaScript.
      case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
        line.append("\\u")
        let hex = String(scalar.value, radix: 16)
        line.append(String(repeating: "0", count: 4 - hex.count) + hex)
      default:
        line.unicodeScalars.append(scalar)
      }
    }
    line.append("\"")
  }

  static func appendValue(_ value: Logger.MetadataValue, to line: inout String) {
    switch value {
    case .string(let string):
      self.appendString(string, to: &line)
    case .stringConvertible(let convertible):
      self.appendString(convertible.description, to: &line)
    case .array(let elements):
      line.append("[")
      for (index, element) in elements.enumerated() {
        if index > 0 { line.append(",") }
        self.appendValue(element, to: &line)
      }
      line.append("]")
    case .dictionary(let dictionary):
      line.append("{")
      for (index, entry) in dictionary.sorted(by: { $0.key < $1.key }).enumerated() {
        if index > 0 { line.append(",") }
        self.appendString(entry.key, to: &line)
        line.append(":")
        self.appendValue(entry.value, to: &line)
      }
      line.append("}")
    }
  }
}
