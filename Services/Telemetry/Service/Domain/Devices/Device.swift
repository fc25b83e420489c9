import Foundation

/// A sensor board a user registered.
public struct Device: Sendable, Hashable {
  public var id: String
  public var ownerUserID: String
  public var name: String
  /// The campaign whose members see it (and everyone, when the campaign is public).
  public var campaignID: String?
  /// Whether its upload token is in force (not revoked).
  public var hasToken: Bool
  public var tokenIssuedAt: Date?
  public var createdAt: Date
  /// When the server last heard from it (its last upload); `nil`: never.
  public var lastSeenAt: Date? = nil
}

/// A shared measurement campaign (a professor and students): its members see its devices.
public struct Campaign: Sendable, Hashable {
  public var id: String
  public var ownerUserID: String
  public var name: String
  /// Everyone sees a public campaign's devices.
  public var isPublic: Bool
  public var memberUserIDs: [String]
}
