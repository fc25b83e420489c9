import BinarioDomain
import Foundation
import GRPCCore

/// A domain refusal is its gRPC status: GRPCCore converts a thrown ``BinarioDomain/ServiceError``
/// wherever it is thrown (a unary handler, mid-stream, an interceptor), so handlers just throw.
/// `INVALID_ARGUMENT` carries a `BadRequest` naming each field; `RESOURCE_EXHAUSTED` says when
/// to retry.
extension ServiceError: RPCErrorConvertible {
  public var rpcErrorCode: RPCError.Code { self.rpcError.code }
  public var rpcErrorMessage: String { self.rpcError.message }
  public var rpcErrorMetadata: Metadata { self.rpcError.metadata }
  /// The status carries everything the caller may see; the domain value stays on the server.
  public var rpcErrorCause: (any Error)? { nil }

  /// The status for this refusal.
  public var rpcError: RPCError {
    switch self {
    case .invalid(let problems):
      return .invalidArgument(violations: problems.map { FieldViolation(field: $0.field, description: $0.description) })
    case .alreadyExists(let message):
      return RPCError(code: .alreadyExists, message: message)
    case .notFound(let message):
      return RPCError(code: .notFound, message: message)
    case .unauthenticated(let message):
      return RPCError(code: .unauthenticated, message: message)
    case .failedPrecondition(let message):
      return RPCError(code: .failedPrecondition, message: message)
    case .permissionDenied(let message):
      return RPCError(code: .permissionDenied, message: message)
    case .throttled:
      return RPCError(code: .resourceExhausted, message: description)
    case .storageFull(let message):
      return RPCError(code: .resourceExhausted, message: message)
    }
  }
}
