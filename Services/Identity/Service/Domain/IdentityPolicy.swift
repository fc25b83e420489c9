import Foundation

/// The tunable numbers of identity: lifetimes, limits and the password hash's cost. Tests use
/// ``forTests`` (cheap hashing); production uses the defaults.
public struct IdentityPolicy: Sendable, Hashable {
  /// How long an access token is valid. Also how long the gateway must remember a revocation.
  public var accessTokenLifetime: TimeInterval
  /// How long a refresh token is valid (each Refresh issues a new one with a new lifetime).
  public var refreshTokenLifetime: TimeInterval
  /// How long an email confirmation code is valid.
  public var confirmationCodeLifetime: TimeInterval
  /// Wrong codes accepted for one confirmation before it must be sent anew.
  public var confirmationAttempts: Int
  public var scrypt: ScryptParameters
  public var loginThrottle: LoginThrottle
  /// Most emergency contacts one account may have.
  public var maximumEmergencyContacts: Int

  public init(
    accessTokenLifetime: TimeInterval = 5 * 60,
    refreshTokenLifetime: TimeInterval = 30 * 24 * 3600,
    confirmationCodeLifetime: TimeInterval = 24 * 3600,
    confirmationAttempts: Int = 5,
    scrypt: ScryptParameters = .production,
    loginThrottle: LoginThrottle = LoginThrottle(),
    maximumEmergencyContacts: Int = 10
  ) {
    self.accessTokenLifetime = accessTokenLifetime
    self.refreshTokenLifetime = refreshTokenLifetime
    self.confirmationCodeLifetime = confirmationCodeLifetime
    self.confirmationAttempts = confirmationAttempts
    self.scrypt = scrypt
    self.loginThrottle = loginThrottle
    self.maximumEmergencyContacts = maximumEmergencyContacts
  }

  /// The defaults with scrypt made cheap.
  public static var forTests: IdentityPolicy {
    IdentityPolicy(scrypt: .cheapForTests)
  }
}
