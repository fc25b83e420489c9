import Foundation

/// Why a service's domain operation was refused, in every service of the suite. Each case maps
/// to one gRPC status code (ServiceKit's `ServiceError.rpcError`); every message is for a person
/// and never contains a secret.
public enum ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Bad input, naming each bad field (→ `INVALID_ARGUMENT` with a `BadRequest`).
  case invalid([FieldProblem])
  /// → `ALREADY_EXISTS`
  case alreadyExists(PersonText)
  /// → `NOT_FOUND`
  case notFound(PersonText)
  /// Wrong credentials, an unusable refresh token, no caller (→ `UNAUTHENTICATED`).
  case unauthenticated(PersonText)
  /// The operation does not apply in the current state (→ `FAILED_PRECONDITION`).
  case failedPrecondition(PersonText)
  /// → `PERMISSION_DENIED`
  case permissionDenied(PersonText)
  /// Too many attempts (failed sign-ins for this address, wrong phone codes, codes asked for);
  /// try again at `until` (→ `RESOURCE_EXHAUSTED`). `reason` says which, for a person.
  case throttled(until: Date, reason: PersonText = "too many failed sign-ins for this address")
  /// The service's storage cannot grow (its disk is full): nothing was written, and the same
  /// request may be retried once space is freed (→ `RESOURCE_EXHAUSTED`).
  case storageFull(PersonText)

  /// One bad field.
  public static func invalid(_ field: String, _ description: PersonText) -> ServiceError {
    .invalid([FieldProblem(field: field, description: description)])
  }

  public var description: String { self.message.description }

  /// The words for a person, in any language (the English ones are ``description``).
  public var message: PersonText {
    switch self {
    case .invalid(let problems):
      return "invalid request: \(PersonText.list(problems.map { "\($0.field): \($0.description)" }, separator: "; "))"
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
  public var description: PersonText

  public init(field: String, description: PersonText) {
    self.field = field
    self.description = description
  }
}
