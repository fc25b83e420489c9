import GatewayService
import SwiftProtobuf

/// A request message as the HTTP/JSON door takes it, by the method's route (generated from its
/// `google.api.http` annotation, the table the gateway itself routes by): the fields its path
/// template names go in the path, the rest in the body (`body: "*"`) or the query.
struct HTTPJSONRequest: Equatable {
  let verb: String
  /// The path and query, percent-encoded: `/v1/taxi/rides/r-1:cancel`, `/v1/stations/MI/departures?limit=10`.
  let target: String
  /// The JSON body, or nil when the route takes none.
  let body: String?

  init(route: HTTPRoute, message: some Message) throws {
    var options = JSONEncodingOptions()
    options.preserveProtoFieldNames = true
    var fields = try Google_Protobuf_Struct(jsonString: message.jsonString(options: options)).fields

    var path = ""
    for segment in route.template.segments {
      path += "/"
      switch segment {
      case .literal(let literal): path += literal
      case .variable(let field):
        guard let value = Self.take(field.split(separator: ".").map(String.init), from: &fields) else {
          throw CallFailure(code: "INVALID_ARGUMENT", message: "\(route.rpc): the path needs \(field), which the request leaves empty")
        }
        path += Self.percentEncoded(Self.text(value), keeping: Self.unreserved)
      }
    }
    if let verb = route.template.customVerb { path += ":\(verb)" }

    self.verb = route.verb.rawValue
    if route.body == "*" {
      self.target = path
      self.body = try Google_Protobuf_Struct(fields: fields).jsonString()
    } else {
      var query: [String] = []
      Self.flatten(fields, prefix: "", into: &query)
      self.target = query.isEmpty ? path : "\(path)?\(query.joined(separator: "&"))"
      self.body = nil
    }
  }

  /// Removes the value at `path` (a nested field's dotted path) from `fields`.
  private static func take(_ path: [String], from fields: inout [String: Google_Protobuf_Value]) -> Google_Protobuf_Value? {
    guard let first = path.first, var value = fields[first] else { return nil }
    if path.count == 1 {
      fields[first] = nil
      return value
    }
    guard case .structValue(var nested) = value.kind else { return nil }
    let taken = take(Array(path.dropFirst()), from: &nested.fields)
    value.structValue = nested
    fields[first] = nested.fields.isEmpty ? nil : value
    return taken
  }

  /// Query parameters for every scalar left, nested fields by their dotted path, lists repeated.
  private static func flatten(_ fields: [String: Google_Protobuf_Value], prefix: String, into query: inout [String]) {
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      let key = prefix.isEmpty ? name : "\(prefix).\(name)"
      switch value.kind {
      case .structValue(let nested): flatten(nested.fields, prefix: key, into: &query)
      case .listValue(let list):
        for item in list.values { query.append("\(key)=\(percentEncoded(text(item), keeping: unreserved))") }
      case .nullValue, nil: break
      default: query.append("\(key)=\(percentEncoded(text(value), keeping: unreserved))")
      }
    }
  }

  /// A scalar as text: numbers without a needless `.0`.
  private static func text(_ value: Google_Protobuf_Value) -> String {
    switch value.kind {
    case .stringValue(let string): return string
    case .boolValue(let bool): return bool ? "true" : "false"
    case .numberValue(let number):
      if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
      return String(number)
    default: return ""
    }
  }

  private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

  private static func percentEncoded(_ text: String, keeping allowed: Set<UInt8>) -> String {
    var encoded = ""
    for byte in text.utf8 {
      if allowed.contains(byte) {
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return encoded
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
