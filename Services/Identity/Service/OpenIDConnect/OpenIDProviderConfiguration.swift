import Foundation

/// An OpenID Connect provider whose ID tokens identity accepts (Google): who issues them, for
/// which client, and where its public keys are.
public struct OpenIDProviderConfiguration: Sendable, Hashable {
  /// Where the provider's signing keys (a JWKS document) come from.
  public enum KeySource: Sendable, Hashable {
    /// Fetched over HTTPS and cached as the response's `Cache-Control: max-age` says.
    case url(String)
    /// Read once from a file (an offline deployment, a test).
    case file(String)
  }

  /// The name accounts are linked under (`google`).
  public var provider: String
  /// Accepted `iss` values.
  public var issuers: Set<String>
  /// The OAuth client id the tokens must be issued for (`aud`).
  public var clientID: String
  public var keys: KeySource
  /// Leeway for clock differences when checking `exp` and `iat`.
  public var clockSkew: TimeInterval

  public init(provider: String, issuers: Set<String>, clientID: String, keys: KeySource, clockSkew: TimeInterval = 60) {
    self.provider = provider
    self.issuers = issuers
    self.clientID = clientID
    self.keys = keys
    self.clockSkew = clockSkew
  }

  /// Google's issuer (both forms Google uses) and published keys, for `clientID`.
  public static func google(
    clientID: String,
    issuer: String? = nil,
    keys: KeySource = .url("https://www.googleapis.com/oauth2/v3/certs")
  ) -> Self {
    OpenIDProviderConfiguration(
      provider: "google",
      issuers: issuer.map { [$0] } ?? ["https://accounts.google.com", "accounts.google.com"],
      clientID: clientID,
      keys: keys
    )
  }
}
