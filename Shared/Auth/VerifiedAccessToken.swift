import Foundation

/// What a valid access token says about its bearer.
public struct VerifiedAccessToken: Sendable, Hashable {
  public var userID: String
  /// The roles this build knows (unknown names are dropped).
  public var roles: Set<Role>
  public var sessionID: String
  public var tokenID: String
  public var expiresAt: Date

  public init(userID: String, roles: Set<Role>, sessionID: String, tokenID: String, expiresAt: Date) {
    self.userID = userID
    self.roles = roles
    self.sessionID = sessionID
    self.tokenID = tokenID
    self.expiresAt = expiresAt
  }
}
