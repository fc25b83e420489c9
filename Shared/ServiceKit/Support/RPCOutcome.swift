import GRPCCore

/// How a call ended, as its caller sees it: the status code GRPCCore sends for a result or error.
struct RPCOutcome: Sendable, Hashable {
  var code: Status.Code

  static let ok = RPCOutcome(code: .ok)

  /// The code GRPCCore's server executor derives from `error`: an `RPCError`'s or
  /// `RPCErrorConvertible`'s own code, `UNKNOWN` for anything else.
  init(error: any Error) {
    if let error = error as? RPCError {
      self.code = Status.Code(error.code)
    } else if let error = error as? any RPCErrorConvertible {
      self.code = Status.Code(error.rpcErrorCode)
    } else {
      self.code = .unknown
    }
  }

  init(code: Status.Code) {
    self.code = code
  }

  var isOK: Bool { self.code == .ok }

  /// The canonical upper-snake name (`OK`, `NOT_FOUND`, …), as gRPC tooling prints it.
  var name: String {
    switch self.code {
    case .ok: return "OK"
    case .cancelled: return "CANCELLED"
    case .unknown: return "UNKNOWN"
    case .invalidArgument: return "INVALID_ARGUMENT"
    case .deadlineExceeded: return "DEADLINE_EXCEEDED"
    case .notFound: return "NOT_FOUND"
    case .alreadyExists: return "ALREADY_EXISTS"
    case .permissionDenied: return "PERMISSION_DENIED"
    case .resourceExhausted: return "RESOURCE_EXHAUSTED"
    case .failedPrecondition: return "FAILED_PRECONDITION"
    case .aborted: return "ABORTED"
    case .outOfRange: return "OUT_OF_RANGE"
    case .unimplemented: return "UNIMPLEMENTED"
    case .internalError: return "INTERNAL"
    case .unavailable: return "UNAVAILABLE"
    case .dataLoss: return "DATA_LOSS"
    case .unauthenticated: return "UNAUTHENTICATED"
    default: return "CODE_\(self.code.rawValue)"
    }
  }
}
