import BinarioAuth
import Foundation

/// What a successful Login or Refresh hands the client.
public struct TokenPair: Sendable, Hashable {
  public var accessToken: String
  public var accessTokenExpiresAt: Date
  /// Opaque; identity keeps only its hash. Single use: Refresh trades it for a new pair.
  public var refreshToken: String
  public var refreshTokenExpiresAt: Date
  public var userID: String
  public var sessionID: String
  public var roles: Set<Role>

  public init(
    accessToken: String,
    accessTokenExpiresAt: Date,
    refreshToken: String,
    refreshTokenExpiresAt: Date,
    userID: String,
    sessionID: String,
    roles: Set<Role>
  ) {
    self.accessToken = accessToken
    self.accessTokenExpiresAt = accessTokenExpiresAt
    self.refreshToken = refreshToken
    self.refreshTokenExpiresAt = refreshTokenExpiresAt
    self.userID = userID
    self.sessionID = sessionID
    self.roles = roles
  }
}
