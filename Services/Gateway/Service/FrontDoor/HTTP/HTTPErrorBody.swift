import BinarioDomain
import BinarioServiceKit
import BinarioTransport
import Foundation
import GRPCProtobuf
import HTTPTypes
import Hummingbird

/// A failed call over HTTP/JSON: the gRPC status code's name, a message for a person, the same
/// in the language the request asked for (`Accept-Language`; the status details'
/// `LocalizedMessage`), the field violations from the status details (`BadRequest`, each with
/// its own `localizedMessage`) and the request id — the OpenAPI document's `Error` schema.
struct HTTPErrorBody: Encodable, Sendable {
  /// `google.rpc.LocalizedMessage` as its JSON mapping has it.
  struct LocalizedMessage: Encodable, Sendable, Hashable {
    var locale: String
    var message: String
  }

  struct FieldViolation: Encodable, Sendable {
    var field: String
    var description: String
    var localizedMessage: LocalizedMessage?
  }

  var code: String
  var message: String
  var localizedMessage: LocalizedMessage?
  var fieldViolations: [FieldViolation]?
  var requestId: String?
  /// The gRPC status code, which decides the HTTP status.
  var statusCode: Int32

  private enum CodingKeys: String, CodingKey {
    case code, message, localizedMessage, fieldViolations, requestId
  }

  static let statusDetailsKey = "grpc-status-details-bin"

  /// A refusal made at the door: `message` in English, and in `language` as its localized message.
  init(code: Int32, message: PersonText, language: Language, fieldViolations: [FieldViolation] = [], requestID: String?) {
    self.init(
      code: code,
      message: message.description,
      localizedMessage: LocalizedMessage(locale: language.locale, message: message.rendered(in: language)),
      fieldViolations: fieldViolations,
      requestID: requestID
    )
  }

  private init(
    code: Int32,
    message: String,
    localizedMessage: LocalizedMessage?,
    fieldViolations: [FieldViolation],
    requestID: String?
  ) {
    self.statusCode = code
    self.code = StatusCodeName.of(code)
    self.message = message
    self.localizedMessage = localizedMessage
    self.fieldViolations = fieldViolations.isEmpty ? nil : fieldViolations
    self.requestId = requestID
  }

  /// The body for a call that ended with `end`.
  init(end: WireEnd, requestID: String?) {
    var violations: [FieldViolation] = []
    var localized: LocalizedMessage?
    for entry in end.trailers where entry.key == Self.statusDetailsKey {
      guard case .binary(let data)? = entry.value, let status = try? GoogleRPCStatus(serializedBytes: data) else { continue }
      violations += status.details.compactMap(\.badRequest).flatMap(\.violations).map {
        FieldViolation(
          field: $0.field,
          description: $0.violationDescription,
          localizedMessage: $0.localizedMessage.map { LocalizedMessage(locale: $0.locale, message: $0.message) }
        )
      }
      localized = localized ?? status.details.compactMap(\.localizedMessage).first.map { LocalizedMessage(locale: $0.locale, message: $0.message) }
    }
    self.init(
      code: end.statusCode,
      message: end.statusMessage,
      localizedMessage: localized,
      fieldViolations: violations,
      requestID: requestID
    )
  }

  func json() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)) ?? Data(#"{"code":"INTERNAL","message":"the error could not be encoded"}"#.utf8)
  }

  /// The HTTP status for a gRPC status code (google.rpc.Code's documented mapping).
  static func httpStatus(for code: Int32) -> HTTPResponse.Status {
    switch code {
    case WireStatusCode.ok: return .ok
    case WireStatusCode.cancelled: return HTTPResponse.Status(code: 499, reasonPhrase: "Client Closed Request")
    case WireStatusCode.invalidArgument, WireStatusCode.failedPrecondition, 11: return .badRequest  // 11: OUT_OF_RANGE
    case WireStatusCode.deadlineExceeded: return .gatewayTimeout
    case WireStatusCode.notFound: return .notFound
    case WireStatusCode.alreadyExists, 10: return .conflict  // 10: ABORTED
    case WireStatusCode.permissionDenied: return .forbidden
    case WireStatusCode.unauthenticated: return .unauthorized
    case WireStatusCode.resourceExhausted: return .tooManyRequests
    case WireStatusCode.unimplemented: return .notImplemented
    case WireStatusCode.unavailable: return .serviceUnavailable
    default: return .internalServerError  // UNKNOWN, INTERNAL, DATA_LOSS
    }
  }
}
