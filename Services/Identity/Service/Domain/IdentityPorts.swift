import BinarioDomain
import Foundation

// Every protocol identity's domain needs of the world outside it; the defaults are in Store/
// (the outboxes) and OpenIDConnect/ (Google sign-in).

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

  /// An email worded in `language`.
  public init(to: String, subject: PersonText, body: PersonText, language: Language) {
    self.init(to: to, subject: subject.rendered(in: language), body: body.rendered(in: language))
  }
}

/// The one way identity sends email. A deployment with a mail provider implements it; the
/// default, ``OutboxEmailSender``, records each email in identity's outbox table.
public protocol EmailSender: Sendable {
  func send(_ email: Email) async throws
}

/// A text message to a phone (SMS or WhatsApp).
public struct TextMessage: Sendable, Hashable {
  public var channel: ContactChannel
  /// E.164, or a short emergency number such as `112`.
  public var to: String
  public var body: String

  public init(channel: ContactChannel, to: String, body: String) {
    self.channel = channel
    self.to = to
    self.body = body
  }

  /// A message worded in `language`.
  public init(channel: ContactChannel, to: String, body: PersonText, language: Language) {
    self.init(channel: channel, to: to, body: body.rendered(in: language))
  }
}

/// The one way identity sends SMS and WhatsApp messages (emergency alerts). A deployment with a
/// messaging provider implements it; the default, ``OutboxTextMessageSender``, records each
/// message in identity's outbox table.
public protocol OutboxMessageSender: Sendable {
  func send(_ message: TextMessage) async throws
}

/// A person as an external sign-in provider vouches for them, from a verified ID token.
public struct ExternalIdentity: Sendable, Hashable {
  /// `google`.
  public var provider: String
  /// The provider's stable id for the person (`sub`).
  public var subject: String
  /// Lower-cased; the provider has verified it.
  public var email: String
  public var givenName: String?
  public var familyName: String?
  public var name: String?

  public init(provider: String, subject: String, email: String, givenName: String?, familyName: String?, name: String?) {
    self.provider = provider
    self.subject = subject
    self.email = email
    self.givenName = givenName
    self.familyName = familyName
    self.name = name
  }
}

/// Checks an ID token from an external sign-in provider (``OpenIDConnectVerifier`` for Google).
public protocol ExternalIdentityVerifier: Sendable {
  /// `google`: the name the link between account and provider is stored under.
  var provider: String { get }

  /// The person the token vouches for, if it verifies at `now`: its signature against the
  /// provider's keys, its issuer, audience and expiry, and that its email is verified.
  /// - Throws: ``ServiceError/unauthenticated(_:)`` saying what did not verify.
  func verify(idToken: String, now: Date) async throws -> ExternalIdentity
}
