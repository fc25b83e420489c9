import BinarioAuth
import Foundation
import IdentityService
import Testing

@Suite("Sign-in, sessions and refresh tokens")
struct SignInTests {
  @Test("a wrong password and an unknown address give the same answer")
  func sameAnswer() async throws {
    let identity = try await TestIdentity()
    try await identity.confirmedAccount("ada@example.com")
    let wrong = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: "wrong password 1") }
    let unknown = await identityError { _ = try await identity.domain.login(email: "eve@example.com", password: "wrong password 1") }
    #expect(wrong == .unauthenticated("wrong email or password"))
    #expect(unknown == wrong)
  }

  @Test("five failures lock the address, for longer each time; a success forgets them")
  func throttling() async throws {
    let identity = try await TestIdentity()
    try await identity.confirmedAccount("ada@example.com")
    for _ in 0 ..< 5 {
      _ = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: "wrong password 1") }
    }
    let locked = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password) }
    #expect(locked == .throttled(until: identity.clock.now().addingTimeInterval(60)))
    #expect(locked?.description.contains("try again after") == true)

    identity.clock.advance(by: 60)
    for _ in 0 ..< 5 {
      _ = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: "wrong password 1") }
    }
    let lockedLonger = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password) }
    #expect(lockedLonger == .throttled(until: identity.clock.now().addingTimeInterval(120)))

    identity.clock.advance(by: 120)
    _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)
    _ = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: "wrong password 1") }
    _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)
  }

  @Test("unknown addresses are throttled alike, so locking tells nothing")
  func unknownThrottled() async throws {
    let identity = try await TestIdentity()
    for _ in 0 ..< 5 {
      _ = await identityError { _ = try await identity.domain.login(email: "ghost@example.com", password: "wrong password 1") }
    }
    let error = await identityError { _ = try await identity.domain.login(email: "ghost@example.com", password: "x") }
    #expect(error?.code == "throttled")
  }

  @Test("the access token carries the session and lives 5 minutes")
  func accessToken() async throws {
    let identity = try await TestIdentity()
    let tokens = try await identity.signedIn("ada@example.com")
    let verifier = identity.domain.accessTokenVerifier
    let verified = try verifier.verify(tokens.accessToken)
    #expect(verified.sessionID == tokens.sessionID)
    #expect(tokens.accessTokenExpiresAt == identity.clock.now().addingTimeInterval(300).wholeSeconds)
    #expect(tokens.refreshTokenExpiresAt == identity.clock.now().addingTimeInterval(30 * 24 * 3600))
    identity.clock.advance(by: 301)
    #expect(throws: AccessTokenError.self) { try verifier.verify(tokens.accessToken) }
  }

  @Test("refresh rotates: a new pair in the same session, and the old token stops working")
  func rotation() async throws {
    let identity = try await TestIdentity()
    let first = try await identity.signedIn("ada@example.com")
    identity.clock.advance(by: 60)
    let second = try await identity.domain.refresh(refreshToken: first.refreshToken)
    #expect(second.sessionID == first.sessionID)
    #expect(second.refreshToken != first.refreshToken)
    #expect(second.accessToken != first.accessToken)
    let third = try await identity.domain.refresh(refreshToken: second.refreshToken)
    #expect(third.sessionID == first.sessionID)
  }

  @Test("presenting a used refresh token ends the whole session, and the watchers hear of it")
  func reuseRevokesSession() async throws {
    let identity = try await TestIdentity()
    let first = try await identity.signedIn("ada@example.com")
    let feed = try await identity.domain.revocationFeed()
    var updates = feed.updates.makeAsyncIterator()
    let second = try await identity.domain.refresh(refreshToken: first.refreshToken)
    // The second token was used: the first one's answer evidently arrived, so a replay is a copy.
    let third = try await identity.domain.refresh(refreshToken: second.refreshToken)

    let replay = await identityError { _ = try await identity.domain.refresh(refreshToken: first.refreshToken) }
    #expect(replay?.code == "unauthenticated")
    let revocation = await updates.next()
    #expect(revocation?.sessionIDs == [first.sessionID])
    #expect(try await !identity.store.isSessionOpen(id: first.sessionID))

    let legitimate = await identityError { _ = try await identity.domain.refresh(refreshToken: third.refreshToken) }
    #expect(legitimate == .unauthenticated("this session has ended; sign in again"))
  }

  @Test("a refresh whose answer was lost may be made again at once; the lost token then ends the session if it shows up")
  func lostAnswer() async throws {
    let identity = try await TestIdentity()
    let first = try await identity.signedIn("ada@example.com")
    let lost = try await identity.domain.refresh(refreshToken: first.refreshToken)
    identity.clock.advance(by: 5)
    // The page reloaded before the answer arrived: it still holds the first token.
    let again = try await identity.domain.refresh(refreshToken: first.refreshToken)
    #expect(again.sessionID == first.sessionID && again.refreshToken != lost.refreshToken)
    let onceMore = try await identity.domain.refresh(refreshToken: first.refreshToken)
    #expect(try await identity.store.isSessionOpen(id: first.sessionID))
    let next = try await identity.domain.refresh(refreshToken: onceMore.refreshToken)

    // The set-aside token turning up is a copy someone else holds.
    let copy = await identityError { _ = try await identity.domain.refresh(refreshToken: lost.refreshToken) }
    #expect(copy?.code == "unauthenticated")
    #expect(try await !identity.store.isSessionOpen(id: first.sessionID))
    let after = await identityError { _ = try await identity.domain.refresh(refreshToken: next.refreshToken) }
    #expect(after == .unauthenticated("this session has ended; sign in again"))
  }

  @Test("beyond the grace, a traded token presented again ends the session even if its successor is unused")
  func replayAfterGrace() async throws {
    let identity = try await TestIdentity()
    let first = try await identity.signedIn("ada@example.com")
    _ = try await identity.domain.refresh(refreshToken: first.refreshToken)
    identity.clock.advance(by: IdentityPolicy.forTests.refreshReplayGrace + 1)
    let replay = await identityError { _ = try await identity.domain.refresh(refreshToken: first.refreshToken) }
    #expect(replay?.code == "unauthenticated")
    #expect(try await !identity.store.isSessionOpen(id: first.sessionID))
  }

  @Test("an expired or unknown refresh token is refused")
  func expiredRefresh() async throws {
    let identity = try await TestIdentity()
    let tokens = try await identity.signedIn("ada@example.com")
    identity.clock.advance(by: 30 * 24 * 3600)
    let expired = await identityError { _ = try await identity.domain.refresh(refreshToken: tokens.refreshToken) }
    #expect(expired == .unauthenticated("the refresh token has expired; sign in again"))
    let unknown = await identityError { _ = try await identity.domain.refresh(refreshToken: "bogus") }
    #expect(unknown?.code == "unauthenticated")
    let empty = await identityError { _ = try await identity.domain.refresh(refreshToken: "") }
    #expect(empty?.fields == ["refresh_token"])
  }

  @Test("logout ends the session at once: published, and its refresh token refused")
  func logout() async throws {
    let identity = try await TestIdentity()
    let tokens = try await identity.signedIn("ada@example.com")
    let other = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)
    let feed = try await identity.domain.revocationFeed()
    var updates = feed.updates.makeAsyncIterator()
    try await identity.domain.logout(userID: tokens.userID, sessionID: tokens.sessionID)
    #expect(await updates.next()?.sessionIDs == [tokens.sessionID])
    let error = await identityError { _ = try await identity.domain.refresh(refreshToken: tokens.refreshToken) }
    #expect(error?.code == "unauthenticated")
    _ = try await identity.domain.refresh(refreshToken: other.refreshToken)
  }

  @Test("someone else's session id does not log them out")
  func logoutOnlyOwnSession() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.signedIn("ada@example.com")
    let bob = try await identity.signedIn("bob@example.com", firstName: "Bob")
    try await identity.domain.logout(userID: bob.userID, sessionID: ada.sessionID)
    #expect(try await identity.store.isSessionOpen(id: ada.sessionID))
  }

  @Test("the revocation feed starts with sessions revoked within the token lifetime")
  func feedBacklog() async throws {
    let identity = try await TestIdentity()
    let old = try await identity.signedIn("ada@example.com")
    try await identity.domain.logout(userID: old.userID, sessionID: old.sessionID)
    identity.clock.advance(by: 301)
    let recent = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)
    try await identity.domain.logout(userID: recent.userID, sessionID: recent.sessionID)
    let feed = try await identity.domain.revocationFeed()
    #expect(feed.recentlyRevoked == [recent.sessionID])
    #expect(feed.rememberUntil == identity.clock.now().addingTimeInterval(300))
  }

  @Test("closing the feeds at shutdown ends every open feed, and later ones at once")
  func closingTheFeeds() async throws {
    let identity = try await TestIdentity()
    let feed = try await identity.domain.revocationFeed()
    var updates = feed.updates.makeAsyncIterator()
    #expect(identity.domain.revocations.subscriberCount == 1)

    identity.domain.revocations.close()
    #expect(await updates.next() == nil)
    #expect(identity.domain.revocations.subscriberCount == 0)

    let late = try await identity.domain.revocationFeed()
    var lateUpdates = late.updates.makeAsyncIterator()
    #expect(await lateUpdates.next() == nil)
    identity.domain.revocations.publish(SessionRevocation(sessionIDs: ["s"], revokedAt: identity.clock.now()))
    #expect(identity.domain.revocations.subscriberCount == 0)
  }
}
