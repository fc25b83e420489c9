import BinarioTestSupport
import Foundation
import IdentityService
import Testing

/// Sign-in with Google against a provider made in the test: its own key pair, its keys served
/// on loopback, fetched by identity with async-http-client.
@Suite("Sign in with Google (OpenID Connect)")
struct GoogleSignInTests {
  /// A provider, its keys served at `/certs`, and an identity that trusts them.
  struct Setup {
    let provider: TestOpenIDProvider
    let server: StaticHTTPServer
    let identity: TestIdentity

    static func make(minimumRefetchInterval: Duration = .seconds(60)) async throws -> Setup {
      let provider = try await TestOpenIDProvider.make()
      let server = try await StaticHTTPServer.start()
      server.serve(try provider.jwks(), at: "/certs")
      let keys = OpenIDProviderConfiguration.KeySource.url(server.url("/certs"))
      let verifier = OpenIDConnectVerifier(
        configuration: .google(clientID: TestOpenIDProvider.clientID, issuer: TestOpenIDProvider.issuer, keys: keys),
        keySet: OpenIDKeySet(source: keys, minimumRefetchInterval: minimumRefetchInterval)
      )
      return Setup(provider: provider, server: server, identity: try await TestIdentity(googleSignIn: verifier))
    }

    func token(
      subject: String = "google-sub-1",
      email: String = "grace@gmail.com",
      _ edit: (inout TestOpenIDProvider.Claims) -> Void = { _ in }
    ) async throws -> String {
      var claims = TestOpenIDProvider.Claims(subject: subject, email: email, issuedAt: identity.clock.now())
      edit(&claims)
      return try await provider.idToken(claims)
    }
  }

  @Test("a valid token creates the account on first use, then signs in to it")
  func createsThenSignsIn() async throws {
    let setup = try await Setup.make()
    defer { Task { await setup.server.stop() } }
    let first = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token())
    #expect(first.created)
    let account = try await setup.identity.domain.me(userID: first.tokens.userID)
    #expect(account.email == "grace@gmail.com")
    #expect(account.emailConfirmed)
    #expect(account.firstName == "Grace" && account.lastName == "Hopper")
    #expect(account.roles == [.passenger])
    #expect(!account.hasPassword)
    #expect(account.linkedProviders == ["google"])
    let verified = try setup.identity.domain.accessTokenVerifier.verify(first.tokens.accessToken)
    #expect(verified.userID == account.id)

    let second = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token())
    #expect(!second.created)
    #expect(second.tokens.userID == account.id)
    // The keys were fetched once and cached.
    #expect(setup.server.requestCount == 1)
    // No password was set, so password sign-in refuses as for a wrong password.
    let password = await identityError { _ = try await setup.identity.domain.login(email: "grace@gmail.com", password: "whatever pass 1") }
    #expect(password?.code == "unauthenticated")
  }

  @Test("the account with the token's verified address is signed in and linked")
  func linksExistingAccount() async throws {
    let setup = try await Setup.make()
    defer { Task { await setup.server.stop() } }
    let ada = try await setup.identity.confirmedAccount("ada@gmail.com")
    let result = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token(subject: "ada-sub", email: "Ada@Gmail.com"))
    #expect(!result.created)
    #expect(result.tokens.userID == ada.id)
    let linked = try await setup.identity.domain.me(userID: ada.id)
    #expect(linked.linkedProviders == ["google"] && linked.hasPassword)
    // Found by subject from now on, even if the provider's address changes.
    let moved = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token(subject: "ada-sub", email: "ada.new@gmail.com"))
    #expect(moved.tokens.userID == ada.id)
  }

  @Test("an unconfirmed account with that address is confirmed, and the password nobody proved is cleared")
  func confirmsUnconfirmedAccount() async throws {
    let setup = try await Setup.make()
    defer { Task { await setup.server.stop() } }
    let squatter = try await setup.identity.domain.register(TestIdentity.details(email: "grace@gmail.com"))
    let result = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token())
    #expect(result.tokens.userID == squatter.id)
    let account = try await setup.identity.domain.me(userID: squatter.id)
    #expect(account.emailConfirmed && !account.hasPassword)
    let password = await identityError { _ = try await setup.identity.domain.login(email: "grace@gmail.com", password: TestIdentity.password) }
    #expect(password?.code == "unauthenticated")
  }

  @Test("a wrong audience, an expired token, an unverified email, another issuer and another key are refused")
  func refusals() async throws {
    let setup = try await Setup.make()
    defer { Task { await setup.server.stop() } }
    let otherProvider = try await TestOpenIDProvider.make()
    let forged = try await otherProvider.idToken(.init(subject: "x", email: "grace@gmail.com", issuedAt: setup.identity.clock.now()))
    let tokens = [
      ("audience", try await setup.token { $0.audience = "someone-else.apps.example" }),
      ("expired", try await setup.token { $0.issuedAt = setup.identity.clock.now().addingTimeInterval(-7200) }),
      ("unverified", try await setup.token { $0.emailVerified = false }),
      ("issuer", try await setup.token { $0.issuer = "https://evil.example" }),
      ("other key", forged),
      ("not a JWT", "not.a.jwt"),
    ]
    for (what, token) in tokens {
      let error = await identityError { _ = try await setup.identity.domain.loginWithGoogle(idToken: token) }
      #expect(error?.code == "unauthenticated", "\(what)")
    }
    #expect(try await setup.identity.store.account(email: "grace@gmail.com") == nil)
    let empty = await identityError { _ = try await setup.identity.domain.loginWithGoogle(idToken: " ") }
    #expect(empty?.fields == ["id_token"])
  }

  @Test("a key the cached set lacks is fetched again, but not more than once per interval")
  func keyRotation() async throws {
    for interval in [Duration.zero, .seconds(60)] {
      let setup = try await Setup.make(minimumRefetchInterval: interval)
      defer { Task { await setup.server.stop() } }
      _ = try await setup.identity.domain.loginWithGoogle(idToken: try await setup.token())
      let rotated = try await TestOpenIDProvider.make(keyID: "test-key-2")
      setup.server.serve(try rotated.jwks(), at: "/certs")
      let claims = TestOpenIDProvider.Claims(subject: "google-sub-1", email: "grace@gmail.com", issuedAt: setup.identity.clock.now())
      let token = try await rotated.idToken(claims)
      if interval == .zero {
        #expect(try await setup.identity.domain.loginWithGoogle(idToken: token).created == false)
        #expect(setup.server.requestCount == 2)
      } else {
        let early = await identityError { _ = try await setup.identity.domain.loginWithGoogle(idToken: token) }
        #expect(early?.code == "unauthenticated")
        #expect(setup.server.requestCount == 1)
      }
    }
  }

  @Test("without configuration it is FAILED_PRECONDITION")
  func notConfigured() async throws {
    let identity = try await TestIdentity()
    let error = await identityError { _ = try await identity.domain.loginWithGoogle(idToken: "anything") }
    #expect(error?.code == "failedPrecondition")
  }

  @Test("keys can come from a file")
  func keysFromFile() async throws {
    let provider = try await TestOpenIDProvider.make()
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json")
    try provider.jwks().write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let verifier = OpenIDConnectVerifier(
      configuration: .google(clientID: TestOpenIDProvider.clientID, issuer: TestOpenIDProvider.issuer, keys: .file(file.path))
    )
    let identity = try await TestIdentity(googleSignIn: verifier)
    let token = try await provider.idToken(.init(subject: "s", email: "lin@gmail.com", issuedAt: identity.clock.now()))
    #expect(try await identity.domain.loginWithGoogle(idToken: token).created)
  }
}
