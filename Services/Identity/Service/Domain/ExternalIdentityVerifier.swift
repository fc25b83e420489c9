import BinarioDomain
import Foundation

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
