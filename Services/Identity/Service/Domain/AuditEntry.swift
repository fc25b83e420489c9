import Foundation

/// One admin action on record: who did what to which account, and when. Emails are kept as they
/// were then, so an entry still reads after either account is gone.
public struct AuditEntry: Sendable, Hashable {
  public enum Action: String, Sendable, Hashable, CaseIterable {
    case createDriver = "create-driver"
    case grantRole = "grant-role"
    case revokeRole = "revoke-role"
    case updateAccount = "update-account"
    case disableAccount = "disable-account"
    case enableAccount = "enable-account"
    case deleteDriver = "delete-driver"
  }

  public var id: String
  public var actorID: String
  public var actorEmail: String
  public var action: Action
  public var targetID: String
  public var targetEmail: String
  /// What changed, for a person.
  public var detail: String
  public var at: Date

  public init(
    id: String,
    actorID: String,
    actorEmail: String,
    action: Action,
    targetID: String,
    targetEmail: String,
    detail: String,
    at: Date
  ) {
    self.id = id
    self.actorID = actorID
    self.actorEmail = actorEmail
    self.action = action
    self.targetID = targetID
    self.targetEmail = targetEmail
    self.detail = detail
    self.at = at
  }
}
