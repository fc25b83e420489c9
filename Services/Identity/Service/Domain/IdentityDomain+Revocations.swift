import Foundation

/// The start of a revocation feed: what to refuse already, and what follows.
public struct RevocationFeed: Sendable {
  /// Sessions revoked within the last access-token lifetime (their tokens may still be unexpired).
  public var recentlyRevoked: [String]
  /// Every token of those sessions has expired by then.
  public var rememberUntil: Date
  /// Each revocation from now on, as it happens.
  public var updates: AsyncStream<SessionRevocation>
}

extension IdentityDomain {
  /// Starts a feed of revoked sessions (`WatchRevocations`). It subscribes before reading the
  /// recent ones, so no revocation falls between the two (one may appear in both).
  public func revocationFeed() async throws -> RevocationFeed {
    let updates = revocations.subscribe()
    let now = clock.now()
    let recent = try await store.revocations(since: now.addingTimeInterval(-policy.accessTokenLifetime))
    return RevocationFeed(
      recentlyRevoked: recent.flatMap(\.sessionIDs),
      rememberUntil: now.addingTimeInterval(policy.accessTokenLifetime),
      updates: updates
    )
  }

  /// Until when a revocation at `revokedAt` must be remembered.
  public func rememberUntil(revokedAt: Date) -> Date {
    revokedAt.addingTimeInterval(policy.accessTokenLifetime)
  }
}
