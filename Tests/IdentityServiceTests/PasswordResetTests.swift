import Foundation
import IdentityService
import Testing

@Suite("Password reset")
struct PasswordResetTests {
  /// The token in the newest reset link emailed to `email`.
  func resetToken(_ identity: TestIdentity, to email: String) async throws -> String {
    let message = try await identity.latestMessage(to: email)
    #expect(message.subject == "Reset your Binario password")
    let link = try #require(message.body.split(separator: "\n").first { $0.contains("?token=") })
    #expect(link.hasPrefix("https://localhost:7443/reset-password?token="))
    let token = String(link.split(separator: "=", maxSplits: 1)[1])
    #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
    return token
  }

  @Test("forgot → link by email → new password; every session ends, the old password stops working")
  func reset() async throws {
    let identity = try await TestIdentity()
    let session = try await identity.signedIn("ada@example.com")
    try await identity.domain.requestPasswordReset(email: " ADA@example.com ")
    let token = try await resetToken(identity, to: "ada@example.com")
    try await identity.domain.resetPassword(token: token, newPassword: "a brand new one 9")
    #expect(try await !identity.store.isSessionOpen(id: session.sessionID))
    let refresh = await identityError { _ = try await identity.domain.refresh(refreshToken: session.refreshToken) }
    #expect(refresh?.code == "unauthenticated")
    let old = await identityError { _ = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password) }
    #expect(old?.code == "unauthenticated")
    _ = try await identity.domain.login(email: "ada@example.com", password: "a brand new one 9")
  }

  @Test("the token works once")
  func singleUse() async throws {
    let identity = try await TestIdentity()
    try await identity.confirmedAccount("ada@example.com")
    try await identity.domain.requestPasswordReset(email: "ada@example.com")
    let token = try await resetToken(identity, to: "ada@example.com")
    try await identity.domain.resetPassword(token: token, newPassword: "a brand new one 9")
    let again = await identityError { try await identity.domain.resetPassword(token: token, newPassword: "another new one 8") }
    #expect(again?.code == "unauthenticated")
    _ = try await identity.domain.login(email: "ada@example.com", password: "a brand new one 9")
  }

  @Test("the token expires")
  func expiry() async throws {
    let identity = try await TestIdentity()
    try await identity.confirmedAccount("ada@example.com")
    try await identity.domain.requestPasswordReset(email: "ada@example.com")
    let token = try await resetToken(identity, to: "ada@example.com")
    identity.clock.advance(by: 3601)
    let expired = await identityError { try await identity.domain.resetPassword(token: token, newPassword: "a brand new one 9") }
    #expect(expired?.code == "unauthenticated")
  }

  @Test("an unknown address gets the same answer and no email")
  func unknownAddress() async throws {
    let identity = try await TestIdentity()
    try await identity.domain.requestPasswordReset(email: "nobody@example.com")
    #expect(try await identity.store.outboxMessages(recipient: "nobody@example.com", limit: 5).isEmpty)
    let malformed = await identityError { try await identity.domain.requestPasswordReset(email: "not an address") }
    #expect(malformed?.fields == ["email"])
  }

  @Test("a second request within a minute sends nothing more")
  func oncePerMinute() async throws {
    let identity = try await TestIdentity()
    try await identity.confirmedAccount("ada@example.com")
    try await identity.domain.requestPasswordReset(email: "ada@example.com")
    try await identity.domain.requestPasswordReset(email: "ada@example.com")
    let resets = try await identity.store.outboxMessages(recipient: "ada@example.com", limit: 10)
      .filter { $0.subject.hasPrefix("Reset") }
    #expect(resets.count == 1)
    identity.clock.advance(by: 61)
    try await identity.domain.requestPasswordReset(email: "ada@example.com")
    #expect(try await identity.store.outboxMessages(recipient: "ada@example.com", limit: 10).filter { $0.subject.hasPrefix("Reset") }.count == 2)
  }

  @Test("a weak password and a missing token name their fields; a bad token is UNAUTHENTICATED")
  func badInput() async throws {
    let identity = try await TestIdentity()
    try await identity.confirmedAccount("ada@example.com")
    try await identity.domain.requestPasswordReset(email: "ada@example.com")
    let token = try await resetToken(identity, to: "ada@example.com")
    let weak = await identityError { try await identity.domain.resetPassword(token: token, newPassword: "short") }
    #expect(weak?.fields == ["new_password"])
    let sameAsEmail = await identityError { try await identity.domain.resetPassword(token: token, newPassword: "ada@example.com1") }
    #expect(sameAsEmail?.fields == ["new_password"])
    let missing = await identityError { try await identity.domain.resetPassword(token: " ", newPassword: "short") }
    #expect(missing?.fields == ["new_password", "token"])
    let forged = await identityError { try await identity.domain.resetPassword(token: "forged-token", newPassword: "a brand new one 9") }
    #expect(forged?.code == "unauthenticated")
  }
}
