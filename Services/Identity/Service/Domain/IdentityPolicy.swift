import Foundation

/// The tunable numbers of identity: lifetimes, limits and the password hash's cost. Tests use
/// ``forTests`` (cheap hashing); production uses the defaults.
public struct IdentityPolicy: Sendable, Hashable {
  /// How long an access token is valid. Also how long the gateway must remember a revocation.
  public var accessTokenLifetime: TimeInterval
  /// How long a refresh token is valid (each Refresh issues a new one with a new lifetime).
  public var refreshTokenLifetime: TimeInterval
  /// How long after its trade a refresh token may be traded again when no newer token of its
  /// session has been used: the answer to the first trade was lost (a page closed or reloaded
  /// while it was on the way). Beyond it, or once a newer token was used, a second trade ends
  /// the session. Okta's "grace period for token rotation" and Auth0's "reuse interval" alike.
  public var refreshReplayGrace: TimeInterval
  /// How long an email confirmation code is valid.
  public var confirmationCodeLifetime: TimeInterval
  /// Wrong codes accepted for one confirmation before it must be sent anew.
  public var confirmationAttempts: Int
  public var scrypt: ScryptParameters
  public var loginThrottle: LoginThrottle
  /// Most emergency contacts one account may have.
  public var maximumEmergencyContacts: Int
  /// How long a phone verification code is valid.
  public var phoneCodeLifetime: TimeInterval
  /// The least time between two codes texted to one account.
  public var phoneCodeResendInterval: TimeInterval
  /// How long a password reset link is valid.
  public var passwordResetLifetime: TimeInterval
  /// The least time between two reset emails to one account (more requests are answered alike
  /// but send nothing).
  public var passwordResetInterval: TimeInterval
  /// The page a reset link opens; the token is appended as `?token=...`.
  public var passwordResetLink: String
  /// Most payment cards one account may keep.
  public var maximumPaymentMethods: Int
  /// Most contacts pending registration one account may keep.
  public var maximumPendingContacts: Int

  public init(
    accessTokenLifetime: TimeInterval = 5 * 60,
    refreshTokenLifetime: TimeInterval = 30 * 24 * 3600,
    refreshReplayGrace: TimeInterval = 30,
    confirmationCodeLifetime: TimeInterval = 24 * 3600,
    confirmationAttempts: Int = 5,
    scrypt: ScryptParameters = .production,
    loginThrottle: LoginThrottle = LoginThrottle(),
    maximumEmergencyContacts: Int = 10,
    phoneCodeLifetime: TimeInterval = 10 * 60,
    phoneCodeResendInterval: TimeInterval = 60,
    passwordResetLifetime: TimeInterval = 3600,
    passwordResetInterval: TimeInterval = 60,
    passwordResetLink: String = "https://localhost:7443/reset-password",
    maximumPaymentMethods: Int = 10,
    maximumPendingContacts: Int = 500
  ) {
    self.accessTokenLifetime = accessTokenLifetime
    self.refreshTokenLifetime = refreshTokenLifetime
    self.refreshReplayGrace = refreshReplayGrace
    self.confirmationCodeLifetime = confirmationCodeLifetime
    self.confirmationAttempts = confirmationAttempts
    self.scrypt = scrypt
    self.loginThrottle = loginThrottle
    self.maximumEmergencyContacts = maximumEmergencyContacts
    self.phoneCodeLifetime = phoneCodeLifetime
    self.phoneCodeResendInterval = phoneCodeResendInterval
    self.passwordResetLifetime = passwordResetLifetime
    self.passwordResetInterval = passwordResetInterval
    self.passwordResetLink = passwordResetLink
    self.maximumPaymentMethods = maximumPaymentMethods
    self.maximumPendingContacts = maximumPendingContacts
  }

  /// The defaults with scrypt made cheap.
  public static var forTests: IdentityPolicy {
    IdentityPolicy(scrypt: .cheapForTests)
  }
}
