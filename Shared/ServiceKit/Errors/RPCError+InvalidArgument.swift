import BinarioDomain
import GRPCCore
import GRPCProtobuf

extension RPCError {
  /// `INVALID_ARGUMENT` in gRPC's rich error model: a `google.rpc.Status` with a `BadRequest`
  /// detail naming each offending field, carried in the `grpc-status-details-bin` trailer, and a
  /// message for a person that lists the same fields.
  ///
  /// With `language`, each violation's `localized_message` and a `LocalizedMessage` detail for
  /// the whole carry the words in that language (each violation's `localizedDescription`).
  ///
  /// - Parameter message: A summary; when empty, one is made from the violations.
  public static func invalidArgument(_ message: String = "", violations: [FieldViolation], language: Language? = nil) -> RPCError {
    func summary(_ describe: (FieldViolation) -> String, empty: String, prefix: String) -> String {
      let listed = violations.map { "\($0.field): \(describe($0))" }.joined(separator: "; ")
      if prefix.isEmpty { return listed.isEmpty ? empty : listed }
      return listed.isEmpty ? prefix : "\(prefix): \(listed)"
    }
    let invalid: PersonText = "the request is invalid"
    let text = summary(\.description, empty: invalid.description, prefix: message)
    var details: [ErrorDetails] = [
      .badRequest(
        violations: violations.map {
          guard let language, let localized = $0.localizedDescription else {
            return .init(field: $0.field, description: $0.description)
          }
          return .init(
            field: $0.field,
            description: $0.description,
            reason: "",
            localizedMessage: .init(locale: language.locale, message: localized)
          )
        }
      )
    ]
    if let language {
      let localized = summary({ $0.localizedDescription ?? $0.description }, empty: invalid.rendered(in: language), prefix: message)
      details.append(.localizedMessage(locale: language.locale, message: localized))
    }
    let status = GoogleRPCStatus(code: .invalidArgument, message: text, details: details)
    return RPCError(code: .invalidArgument, message: text, metadata: status.rpcErrorMetadata)
  }

  /// A refusal with `code`, its English words as the status message and the same words in
  /// `language` as a `google.rpc.LocalizedMessage` detail (`grpc-status-details-bin`).
  public static func localized(_ code: RPCError.Code, _ message: PersonText, in language: Language) -> RPCError {
    let status = GoogleRPCStatus(
      code: code,
      message: message.description,
      details: [.localizedMessage(locale: language.locale, message: message.rendered(in: language))]
    )
    return RPCError(code: code, message: message.description, metadata: status.rpcErrorMetadata)
  }

  /// The `BadRequest` field violations this error carries in its `grpc-status-details-bin`
  /// trailer (empty when it carries none): what a client shows next to each field.
  public var fieldViolations: [FieldViolation] {
    guard let status = try? self.unpackGoogleRPCStatus() else { return [] }
    return status.details.compactMap(\.badRequest).flatMap(\.violations).map {
      FieldViolation(field: $0.field, description: $0.violationDescription, localizedDescription: $0.localizedMessage?.message)
    }
  }

  /// The words in the caller's language this error carries (`google.rpc.LocalizedMessage`), if any.
  public var localizedMessage: (locale: String, message: String)? {
    guard let status = try? self.unpackGoogleRPCStatus(), let localized = status.details.compactMap(\.localizedMessage).first else {
      return nil
    }
    return (localized.locale, localized.message)
  }
}
