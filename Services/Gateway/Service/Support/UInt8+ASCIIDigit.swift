extension UInt8 {
  /// Whether this UTF-8 byte is `0`…`9`.
  var isASCIIDigit: Bool { (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(self) }
}
