/// A value of the JSON config file, kept as written so each setting can check its own type.
enum JSONValue: Decodable, Sendable, Hashable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// The value as it would appear in JSON, for error messages.
  var description: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return String(value)
    case .number(let value):
      if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
      return String(value)
    case .string(let value): return "\"\(value)\""
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
