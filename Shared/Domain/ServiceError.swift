import Foundation

/// Why a service's domain operation was refused, in every service of the suite. Each case maps
/// to one gRPC status code (ServiceKit's `ServiceError.rpcError`); every message is for a person
/// and never contains a secret.
public enum ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Bad input, naming each bad field (→ `INVALID_ARGUMENT` with a `BadRequest`).
  case invalid([FieldProblem])
  /// → `ALREADY_EXISTS`
  case alreadyExists(String)
  /// → `NOT_FOUND`
  case notFound(String)
  /// Wrong credentials, an unusable refresh token, no caller (→ `UNAUTHENTICATED`).
  case unauthenticated(String)
  /// The operation does not apply in the current state (→ `FAILED_PRECONDITION`).
  case failedPrecondition(String)
  /// → `PERMISSION_DENIED`
  case permissionDenied(String)
  /// Too many attempts (failed sign-ins for this address, wrong phone codes, codes asked for);
  /// try again at `until` (→ `RESOURCE_EXHAUSTED`). `reason` says which, for a person.
  case throttled(until: Date, reason: String = "too many failed sign-ins for this address")
  /// The service's storage cannot grow (its disk is full): nothing was written, and the same
  /// request may be retried once space is freed (→ `RESOURCE_EXHAUSTED`).
  case storageFull(String)

  /// One bad field.
  public static func invalid(_ field: String, _ description: String) -> ServiceError {
    .invalid([FieldProblem(field: field, description: description)])
  }

  public var description: String {
    switch self {
    case .invalid(let problems):
      return "invalid request: " + problems.map { "\($0.field): \($0.description)" }.joined(separator: "; ")
    case .alreadyExists(let message), .notFound(let message), .unauthenticated(let message),
      .failedPrecondition(let message), .permissionDenied(let message), .storageFull(let message):
      return message
    case .throttled(let until, let reason):
      return "\(reason); try again after \(until.ISO8601Format())"
    }
  }
}

/// One bad field of a request: its name as in the proto (`email`, `new_password`) and what is
/// wrong with it.
public struct FieldProblem: Sendable, Hashable {
  public var field: String
  public var description: String

  public init(field: String, description: String) {
    self.field = field
    self.description = description
  }
}
