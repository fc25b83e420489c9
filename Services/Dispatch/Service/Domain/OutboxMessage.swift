import BinarioDomain
import Foundation

/// A notification written with the change that caused it, sent once committed.
public struct OutboxMessage: Sendable, Hashable {
  /// Whom it is for: one user, or the admins on alert duty.
  public enum Audience: String, Sendable, Hashable {
    case user, admins
  }

  var seq: Int64 = 0
  /// Scheduling's dedupe key: a resend notifies nobody twice.
  public var dedupeKey: String
  public var audience: Audience
  /// The user (``Audience/user``); empty for the admins.
  public var userID: String
  /// The words in every language; each recipient reads their own.
  public var title: TranslatedText
  public var body: TranslatedText
  public var data: [String: String]
  /// A driver's job updates go by push only, whatever their preferences (G5 D1).
  public var pushOnly: Bool

  public init(
    dedupeKey: String,
    audience: Audience,
    userID: String,
    title: TranslatedText,
    body: TranslatedText,
    data: [String: String],
    pushOnly: Bool = false
  ) {
    self.dedupeKey = dedupeKey
    self.audience = audience
    self.userID = userID
    self.title = title
    self.body = body
    self.data = data
    self.pushOnly = pushOnly
  }
}
