/// One bad field of a request: which field (as named in the proto, e.g. `email` or
/// `account.user_id`) and what is wrong with it, in words for a person.
public struct FieldViolation: Sendable, Hashable, CustomStringConvertible {
  public var field: String
  public var description: String

  public init(field: String, description: String) {
    self.field = field
    self.description = description
  }
}
