import Foundation

/// Sessions ended at one moment: their access tokens must be refused from then on.
public struct SessionRevocation: Sendable, Hashable {
  public var sessionIDs: [String]
  public var revokedAt: Date

  public init(sessionIDs: [String], revokedAt: Date) {
    self.sessionIDs = sessionIDs
    self.revokedAt = revokedAt
  }
}
