import BinarioDomain
import Foundation
import GRPCCore

/// A domain refusal is its gRPC status: GRPCCore converts a thrown ``BinarioDomain/ServiceError``
/// wherever it is thrown (a unary handler, mid-stream, an interceptor), so handlers just throw.
/// `INVALID_ARGUMENT` carries a `BadRequest` naming each field; `RESOURCE_EXHAUSTED` says when
/// to retry. ``ErrorStatusServerInterceptor`` converts it first, in the language the caller
/// asked for (``rpcError(in:)``).
extension ServiceError: RPCErrorConvertible {
  public var rpcErrorCode: RPCError.Code { self.rpcError.code }
  public var rpcErrorMessage: String { self.rpcError.message }
  public var rpcErrorMetadata: Metadata { self.rpcError.metadata }
  /// The status carries everything the caller may see; the domain value stays on the server.
  public var rpcErrorCause: (any Error)? { nil }

  /// The status for this refusal, in English only.
  public var rpcError: RPCError {
    switch self {
    case .invalid(let problems):
      return .invalidArgument(violations: problems.map { FieldViolation(field: $0.field, description: $0.description.description) })
    default:
      return RPCError(code: self.code, message: self.description)
    }
  }

  /// The status for this refusal: English words as its message, and the same words in
  /// `language` as `google.rpc.LocalizedMessage` details (each field's too).
  public func rpcError(in language: Language) -> RPCError {
    switch self {
    case .invalid(let problems):
      let violations = problems.map {
        FieldViolation(field: $0.field, description: $0.description.description, localizedDescription: $0.description.rendered(in: language))
      }
      return .invalidArgument(violations: violations, language: language)
    default:
      return .localized(self.code, self.message, in: language)
    }
  }

  var code: RPCError.Code {
    switch self {
    case .invalid: .invalidArgument
    case .alreadyExists: .alreadyExists
    case .notFound: .notFound
    case .unauthenticated: .unauthenticated
    case .failedPrecondition: .failedPrecondition
    case .permissionDenied: .permissionDenied
    case .throttled, .storageFull: .resourceExhausted
    }
  }
}
