import BinarioDomain
import Foundation

/// A notification as a sender writes it, before it has recipients: its words in every language,
/// each recipient reading their own.
public struct NotificationContent: Sendable, Hashable {
  public var kind: NotificationKind
  public var title: TranslatedText
  public var body: TranslatedText
  /// Ids the client can open (`trip_id`, `service_date`, `itinerary_id`, ...).
  public var data: [String: String]

  public init(kind: NotificationKind, title: TranslatedText, body: TranslatedText, data: [String: String] = [:]) {
    self.kind = kind
    self.title = title
    self.body = body
    self.data = data
  }
}

/// One recipient's notification, as kept in their inbox.
public struct UserNotification: Sendable, Hashable {
  public var id: String
  /// The position in the order notifications were made (suite-wide, increasing): the cursor.
  public var sequence: Int64
  public var userID: String
  public var content: NotificationContent
  public var createdAt: Date
  public var read: Bool
  /// Goes out by push only, whatever the user's preferences (a driver's taxi updates).
  public var pushOnly: Bool
  /// The language it reaches its recipient in: their account's, set as it is delivered.
  public var language: Language = .fallback

  public init(
    id: String,
    sequence: Int64,
    userID: String,
    content: NotificationContent,
    createdAt: Date,
    read: Bool,
    pushOnly: Bool = false
  ) {
    self.id = id
    self.sequence = sequence
    self.userID = userID
    self.content = content
    self.createdAt = createdAt
    self.read = read
    self.pushOnly = pushOnly
  }

  /// The opaque cursor a client resumes after.
  public var cursor: String { String(self.sequence) }

  /// The title in ``language``.
  public var title: String { self.content.title.text(in: self.language) }
  /// The body in ``language``.
  public var body: String { self.content.body.text(in: self.language) }
}

/// A client's resume point: the ``UserNotification/cursor`` it saw last.
public struct NotificationCursor: Sendable, Hashable {
  public var sequence: Int64

  /// `nil` for text that is not a cursor this service gave out.
  public init?(_ text: String) {
    guard let sequence = Int64(text), sequence >= 0 else { return nil }
    self.sequence = sequence
  }

  public init(sequence: Int64) {
    self.sequence = sequence
  }
}

/// One page of an inbox, newest first.
public struct InboxPage: Sendable, Hashable {
  public var notifications: [UserNotification]
  /// Where the next (older) page starts; `nil` on the last page.
  public var nextBefore: Int64?
  public var unreadCount: Int

  /// The token ``NotificationCentre/inbox(userID:pageSize:pageToken:unreadOnly:)`` takes for the
  /// next page; empty on the last page.
  public var nextPageToken: String {
    nextBefore.map { Paging.token(after: [String($0)]) } ?? ""
  }
}
