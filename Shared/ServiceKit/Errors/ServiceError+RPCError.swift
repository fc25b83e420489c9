import BinarioDomain
import Foundation
import GRPCCore

extension ServiceError {
  /// The gRPC status for this refusal: `INVALID_ARGUMENT` carries a `BadRequest` naming each
  /// field (ServiceKit's rich error helper); `RESOURCE_EXHAUSTED` says when to retry.
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
