/// One bad field of a request: which field (as named in the proto, e.g. `email` or
/// `account.user_id`) and what is wrong with it, in words for a person — in English, and in the
/// language the caller asked for when the service said it in that language too.
public struct FieldViolation: Sendable, Hashable, CustomStringConvertible {
  public var field: String
  public var description: String
  /// `description` in the language the caller asked for (`google.rpc.LocalizedMessage`).
  public var localizedDescription: String?

  public init(field: String, description: String, localizedDescription: String? = nil) {
    self.field = field
    self.description = description
    self.localizedDescription = localizedDescription
  }
}
