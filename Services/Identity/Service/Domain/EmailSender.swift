/// An email identity sends (confirmation codes).
public struct Email: Sendable, Hashable {
  public var to: String
  public var subject: String
  public var body: String

  public init(to: String, subject: String, body: String) {
    self.to = to
    self.subject = subject
    self.body = body
  }
}

/// The one way identity sends email. A deployment with a mail provider implements it; the
/// default, ``OutboxEmailSender``, records each email in identity's outbox table.
public protocol EmailSender: Sendable {
  func send(_ email: Email) async throws
}
