import BinarioDomain
import BinarioProto
import Foundation
import SwiftProtobuf

/// Turns an HTTP request into a method's request message and its answers into JSON, with
/// proto3's canonical JSON mapping (swift-protobuf's JSON coding). The gateway forwards the
/// binary message it makes here exactly as a Binario client would have sent it.
public protocol MessageTranscoding: Sendable {
  /// The request message, binary: the JSON `body` (all of it, or none when empty) with each
  /// parameter (a path variable or a query parameter, by field path) set on top.
  /// - Throws: ``TranscodingError`` naming the field or saying what is wrong with the JSON.
  func request(body: [UInt8], parameters: [(field: String, value: String, kind: HTTPRoute.ParameterKind)]) throws(TranscodingError) -> [UInt8]

  /// One answer message, binary, as canonical JSON (fields in lowerCamelCase, defaults left out).
  func responseJSON(_ message: [UInt8]) throws(TranscodingError) -> [UInt8]

  /// For a method answering `google.api.HttpBody`: the answer's content type and bytes, sent as
  /// they are instead of JSON (gRPC transcoding's rule); `nil` for every other method.
  func httpBody(_ message: [UInt8]) throws(TranscodingError) -> (contentType: String, data: [UInt8])?
}

extension MessageTranscoding {
  public func httpBody(_ message: [UInt8]) throws(TranscodingError) -> (contentType: String, data: [UInt8])? { nil }
}

/// Why an HTTP request could not become a request message.
public struct TranscodingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The field at fault (proto name, dotted), or empty for the body as a whole.
  public var field: String
  public var reason: PersonText

  public var description: String { field.isEmpty ? reason.description : "\(field): \(reason)" }
}

/// ``MessageTranscoding`` for one method's request and response types.
public struct MessageTranscoder<Request: SwiftProtobuf.Message, Response: SwiftProtobuf.Message>: MessageTranscoding {
  public init() {}

  public func request(
    body: [UInt8],
    parameters: [(field: String, value: String, kind: HTTPRoute.ParameterKind)]
  ) throws(TranscodingError) -> [UInt8] {
    // Without path or query values (most calls) the body is the request as it is: swift-protobuf
    // reads it directly, without Foundation's JSON round trip.
    if parameters.isEmpty {
      return try Self.decode(body) { body.isEmpty ? Request() : try Request(jsonUTF8Bytes: body) }
    }
    var object: [String: Any] = [:]
    if !body.isEmpty {
      guard let parsed = try? JSONSerialization.jsonObject(with: Data(body)), let dictionary = parsed as? [String: Any] else {
        throw TranscodingError(field: "", reason: "the body must be a JSON object")
      }
      object = dictionary
    }
    for parameter in parameters {
      let value: Any
      switch parameter.kind {
      case .string:
        value = parameter.value
      case .number:
        guard let number = Double(parameter.value), number.isFinite else {
          throw TranscodingError(field: parameter.field, reason: "\"\(parameter.value)\" is not a number")
        }
        value = number == number.rounded() && abs(number) < 1e15 ? Int64(number) as Any : number
      case .bool:
        guard let flag = Bool(parameter.value) else {
          throw TranscodingError(field: parameter.field, reason: "\"\(parameter.value)\" is not true or false")
        }
        value = flag
      }
      Self.set(value, at: parameter.field.split(separator: ".").map(String.init), in: &object)
    }
    let json: Data
    do {
      json = try JSONSerialization.data(withJSONObject: object)
    } catch {
      throw TranscodingError(field: "", reason: "the request could not be encoded")
    }
    return try Self.decode(Array(json)) { try Request(jsonUTF8Data: json) }
  }

  /// The binary form of the request `makeMessage` reads from `json`. A value of the wrong type
  /// is named by its field's JSON name (`outbound.fromStationId`), found by reading the object
  /// one field at a time: swift-protobuf's error says what is wrong, not where.
  private static func decode(_ json: [UInt8], _ makeMessage: () throws -> Request) throws(TranscodingError) -> [UInt8] {
    do {
      return try makeMessage().serializedBytes()
    } catch let error as SwiftProtobuf.JSONDecodingError {
      if case .unknownField = error {
        throw TranscodingError(field: "", reason: Self.describe(error))
      }
      let object = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any]
      let path = object.flatMap { Self.culprit(in: $0, at: []) } ?? []
      guard !path.isEmpty else { throw TranscodingError(field: "", reason: Self.describe(error)) }
      throw TranscodingError(field: path.joined(separator: "."), reason: Self.expectation(error))
    } catch {
      throw TranscodingError(field: "", reason: "the request does not fit \(Request.protoMessageName): \(error)")
    }
  }

  public func httpBody(_ message: [UInt8]) throws(TranscodingError) -> (contentType: String, data: [UInt8])? {
    guard Response.self == Google_Api_HttpBody.self else { return nil }
    do {
      let body = try Google_Api_HttpBody(serializedBytes: message)
      return (body.contentType.isEmpty ? "application/octet-stream" : body.contentType, Array(body.data))
    } catch {
      throw TranscodingError(field: "", reason: "the answer is not a \(Response.protoMessageName): \(error)")
    }
  }

  public func responseJSON(_ message: [UInt8]) throws(TranscodingError) -> [UInt8] {
    do {
      return Array(try Response(serializedBytes: message).jsonUTF8Data())
    } catch {
      throw TranscodingError(field: "", reason: "the answer is not a \(Response.protoMessageName): \(error)")
    }
  }

  /// Sets `value` at the (proto-named) `path`, making the objects on the way; a parameter wins
  /// over the same field in the body.
  static func set(_ value: Any, at path: [String], in object: inout [String: Any]) {
    guard let first = path.first else { return }
    let camel = lowerCamel(first)
    if path.count == 1 {
      if camel != first { object[camel] = nil }
      object[first] = value
      return
    }
    var inner = (object[first] as? [String: Any]) ?? (object[camel] as? [String: Any]) ?? [:]
    set(value, at: Array(path.dropFirst()), in: &inner)
    if camel != first { object[camel] = nil }
    object[first] = inner
  }

  static func lowerCamel(_ name: String) -> String {
    var result = ""
    var upper = false
    for character in name {
      if character == "_" {
        upper = true
      } else {
        result.append(upper ? Character(character.uppercased()) : character)
        upper = false
      }
    }
    return result
  }

  /// The JSON names of the path to the first field of `object` (nested at `path` in the request)
  /// that does not read on its own, or `nil` when each does.
  static func culprit(in object: [String: Any], at path: [String]) -> [String]? {
    for key in object.keys.sorted() {
      guard let value = object[key] else { continue }
      if Self.reads(wrapping([key: value], in: path)) { continue }
      if let inner = value as? [String: Any], let deeper = culprit(in: inner, at: path + [key]) {
        return [lowerCamel(key)] + deeper
      }
      if let items = value as? [Any] {
        for (index, item) in items.enumerated() {
          guard let inner = item as? [String: Any], !Self.reads(wrapping([key: [item]], in: path)) else { continue }
          if let deeper = culprit(in: inner, at: path + [key]) { return ["\(lowerCamel(key))[\(index)]"] + deeper }
        }
      }
      return [lowerCamel(key)]
    }
    return nil
  }

  /// `object` as the value at `path` of an otherwise empty request.
  private static func wrapping(_ object: [String: Any], in path: [String]) -> [String: Any] {
    path.reversed().reduce(object) { inner, key in [key: inner] }
  }

  private static func reads(_ object: [String: Any]) -> Bool {
    guard let json = try? JSONSerialization.data(withJSONObject: object) else { return false }
    return (try? Request(jsonUTF8Data: json)) != nil
  }

  /// What the named field's value should have been.
  static func expectation(_ error: SwiftProtobuf.JSONDecodingError) -> PersonText {
    switch error {
    case .malformedNumber, .numberRange: return "must be a number (64-bit integers may be strings)"
    case .malformedBool: return "must be true or false"
    case .malformedString: return "must be a string"
    case .unrecognizedEnumValue: return "is not one of the documented names"
    default: return "does not fit this field (\(error))"
    }
  }

  static func describe(_ error: SwiftProtobuf.JSONDecodingError) -> PersonText {
    switch error {
    case .unknownField(let name): return "the request has no field \"\(name)\""
    case .malformedNumber: return "a number is malformed"
    case .malformedBool: return "a boolean is malformed"
    case .malformedString: return "a string is malformed"
    case .unrecognizedEnumValue: return "an enum value is not one of the documented names"
    case .truncated: return "the JSON is truncated"
    default: return "the JSON does not fit the request (\(error))"
    }
  }
}
