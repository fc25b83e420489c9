import GRPCCore

/// UTF-8 strings as messages, so the test service needs no generated code.
struct StringSerializer: MessageSerializer {
  func serialize<Bytes: GRPCContiguousBytes>(_ message: String) throws -> Bytes {
    Bytes(Array(message.utf8))
  }
}

struct StringDeserializer: MessageDeserializer {
  func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> String {
    serializedMessageBytes.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
  }
}
