import GRPCCore
import GRPCProtobuf

extension RPCError {
  /// `INVALID_ARGUMENT` in gRPC's rich error model: a `google.rpc.Status` with a `BadRequest`
  /// detail naming each offending field, carried in the `grpc-status-details-bin` trailer, and a
  /// message for a person that lists the same fields.
  ///
  /// - Parameter message: A summary; when empty, one is made from the violations.
  public static func invalidArgument(_ message: String = "", violations: [FieldViolation]) -> RPCError {
    let summary = violations.map { "\($0.field): \($0.description)" }.joined(separator: "; ")
    let text: String
    if message.isEmpty {
      text = summary.isEmpty ? "the request is invalid" : summary
    } else {
      text = summary.isEmpty ? message : "\(message): \(summary)"
    }
    let status = GoogleRPCStatus(
      code: .invalidArgument,
      message: text,
      details: [.badRequest(violations: violations.map { .init(field: $0.field, description: $0.description) })]
    )
    return RPCError(code: .invalidArgument, message: text, metadata: status.rpcErrorMetadata)
  }

  /// The `BadRequest` field violations this error carries in its `grpc-status-details-bin`
  /// trailer (empty when it carries none): what a client shows next to each field.
  public var fieldViolations: [FieldViolation] {
    guard let status = try? self.unpackGoogleRPCStatus() else { return [] }
    return status.details.compactMap(\.badRequest).flatMap(\.violations).map {
      FieldViolation(field: $0.field, description: $0.violationDescription)
    }
  }
}
