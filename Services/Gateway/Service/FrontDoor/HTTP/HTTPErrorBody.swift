import BinarioServiceKit
import BinarioTransport
import Foundation
import GRPCProtobuf
import HTTPTypes
import Hummingbird

/// A failed call over HTTP/JSON: the gRPC status code's name, a message for a person, the field
/// violations from the status details (`grpc-status-details-bin`'s `BadRequest`) and the
/// request id — the OpenAPI document's `Error` schema.
struct HTTPErrorBody: Encodable, Sendable {
  struct FieldViolation: Encodable, Sendable {
    var field: String
    var description: String
  }

  var code: String
  var message: String
  var fieldViolations: [FieldViolation]?
  var requestId: String?
  /// The gRPC status code, which decides the HTTP status.
  var statusCode: Int32

  private enum CodingKeys: String, CodingKey {
    case code, message, fieldViolations, requestId
  }

  static let statusDetailsKey = "grpc-status-details-bin"

  init(code: Int32, message: String, fieldViolations: [FieldViolation] = [], requestID: String?) {
    self.statusCode = code
    self.code = StatusCodeName.of(code)
    self.message = message
    self.fieldViolations = fieldViolations.isEmpty ? nil : fieldViolations
    self.requestId = requestID
  }

  /// The body for a call that ended with `end`.
  init(end: WireEnd, requestID: String?) {
    var violations: [FieldViolation] = []
    for entry in end.trailers where entry.key == Self.statusDetailsKey {
      guard case .binary(let data)? = entry.value, let status = try? GoogleRPCStatus(serializedBytes: data) else { continue }
      violations += status.details.compactMap(\.badRequest).flatMap(\.violations).map {
        FieldViolation(field: $0.field, description: $0.violationDescription)
      }
    }
    self.init(code: end.statusCode, message: end.statusMessage, fieldViolations: violations, requestID: requestID)
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
