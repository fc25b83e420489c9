import GRPCCore

/// gRPC's canonical upper-snake name of a status code (`OK`, `UNAVAILABLE`, …), for logs and
/// metric labels.
public enum StatusCodeName {
  public static func of(_ code: Status.Code) -> String {
    switch code {
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
    default: return "CODE_\(code.rawValue)"
    }
  }

  /// The name of a code as it travels in an `End` frame.
  public static func of(_ code: Int32) -> String {
    guard let known = Status.Code(rawValue: Int(code)) else { return "CODE_\(code)" }
    return Self.of(known)
  }
}
