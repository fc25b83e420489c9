import BinarioAuth
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import IdentityService
import Testing

@Suite("Identity over mutual TLS: handlers, statuses and who may act as a user")
struct HandlerOverTLSTests {
  let pki = IdentityTestPKI.material

  @Test("through the gateway's certificate, the forwarded caller reads their profile")
  func gatewayCaller() async throws {
    let identity = try await TestIdentity()
    let tokens = try await identity.signedIn("ada@example.com")
    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.gateway) { client in
        let me = try await client.getMe(.init(), metadata: gatewayMetadata(for: tokens))
        #expect(me.profile.email == "ada@example.com")
        #expect(me.profile.roles == [.passenger])
        #expect(me.profile.birthDate == "1990-05-17")
      }
    }
  }

  @Test("another service's valid certificate cannot act as a user, not even an admin")
  func otherServiceCannotActAsUser() async throws {
    let identity = try await TestIdentity()
    let tokens = try await identity.signedIn("ada@example.com")
    var forged = gatewayMetadata(for: tokens)
    CallerIdentity(userID: tokens.userID, roles: [.admin], sessionID: tokens.sessionID).write(to: &forged)
    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.dispatch) { client in
        let me = await rpcError { _ = try await client.getMe(.init(), metadata: forged) }
        #expect(me?.code == .unauthenticated)
        let delete = await rpcError { _ = try await client.deleteMe(.with { $0.password = TestIdentity.password }, metadata: forged) }
        #expect(delete?.code == .unauthenticated)
        let admin = await rpcError { _ = try await client.listOutboxMessages(.init(), metadata: forged) }
        #expect(admin?.code == .unauthenticated)
        // Public methods still work for it, as for anyone.
        let keys = try await client.getSigningKeys(.init())
        #expect(keys.keys.count == 1)
      }
    }
    #expect(try await identity.store.account(id: tokens.userID) != nil)
  }

  @Test("a bad registration is INVALID_ARGUMENT with a BadRequest naming each field in the trailer")
  func richValidationError() async throws {
    let identity = try await TestIdentity()
    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.gateway) { client in
        let error = await rpcError {
          _ = try await client.register(
            .with {
              $0.email = "nope"
              $0.password = "short"
              $0.firstName = "Ada"
              $0.lastName = "Lovelace"
              $0.phone = "+393331234567"
              $0.birthDate = "1990-01-01"
            }
          )
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.fieldViolations.map(\.field).sorted() == ["email", "password"])
        #expect(error?.message.contains("email") == true)
      }
    }
  }

  @Test("register → confirm → login → refresh → logout, with the statuses the proto promises")
  func flow() async throws {
    let identity = try await TestIdentity()
    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.gateway) { client in
        let registered = try await client.register(
          .with {
            $0.email = "ada@example.com"
            $0.password = TestIdentity.password
            $0.firstName = "Ada"
            $0.lastName = "Lovelace"
            $0.phone = "+393331234567"
            $0.birthDate = "1990-05-17"
            $0.gender = .female
          }
        )
        let duplicate = await rpcError {
          _ = try await client.register(
            .with {
              $0.email = "ada@example.com"
              $0.password = TestIdentity.password
              $0.firstName = "A"
              $0.lastName = "B"
              $0.phone = "+393331234567"
              $0.birthDate = "1990-05-17"
              $0.gender = .male
            }
          )
        }
        #expect(duplicate?.code == .alreadyExists)
        let early = await rpcError {
          _ = try await client.login(
            .with {
              $0.email = "ada@example.com"
              $0.password = TestIdentity.password
            }
          )
        }
        #expect(early?.code == .failedPrecondition)

        let code = try await identity.latestCode(to: "ada@example.com")
        _ = try await client.confirmEmail(
          .with {
            $0.email = "ada@example.com"
            $0.code = code
          }
        )
        let login = try await client.login(
          .with {
            $0.email = "ada@example.com"
            $0.password = TestIdentity.password
          }
        )
        #expect(login.tokens.userID == registered.userID)
        #expect(login.tokens.roles == [.passenger])
        let keys = try await client.getSigningKeys(.init())
        let verifier = try AccessTokenVerifier(
          rawKeys: Dictionary(uniqueKeysWithValues: keys.keys.map { ($0.keyID, $0.publicKey) }),
          now: { identity.clock.now() }
        )
        let verified = try verifier.verify(login.tokens.accessToken)

        let refreshed = try await client.refresh(.with { $0.refreshToken = login.tokens.refreshToken })
        // Once the new token is used, the first one's answer evidently arrived: a replay is a copy.
        let next = try await client.refresh(.with { $0.refreshToken = refreshed.tokens.refreshToken })
        let replay = await rpcError { _ = try await client.refresh(.with { $0.refreshToken = login.tokens.refreshToken }) }
        #expect(replay?.code == .unauthenticated)
        let afterReplay = await rpcError { _ = try await client.refresh(.with { $0.refreshToken = next.tokens.refreshToken }) }
        #expect(afterReplay?.code == .unauthenticated)
        #expect(try await !identity.store.isSessionOpen(id: verified.sessionID))

        for _ in 0 ..< 5 {
          _ = await rpcError {
            _ = try await client.login(
              .with {
                $0.email = "ada@example.com"
                $0.password = "wrong password 1"
              }
            )
          }
        }
        let throttled = await rpcError {
          _ = try await client.login(
            .with {
              $0.email = "ada@example.com"
              $0.password = TestIdentity.password
            }
          )
        }
        #expect(throttled?.code == .resourceExhausted)
        #expect(throttled?.message.contains("try again after") == true)
      }
    }
  }

  @Test("admin methods refuse passengers and drivers, admit admins")
  func adminOnly() async throws {
    let identity = try await TestIdentity()
    let passenger = try await identity.signedIn("ada@example.com")
    _ = try await identity.domain.createDriver(TestIdentity.details(email: "dina@example.com"), by: "admin-id")
    let driver = try await identity.domain.login(email: "dina@example.com", password: TestIdentity.password)
    try await identity.domain.ensureFirstAdmin(email: "root@example.com", password: "admin password 1")
    let admin = try await identity.domain.login(email: "root@example.com", password: "admin password 1")
    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.gateway) { client in
        for tokens in [passenger, driver] {
          let error = await rpcError { _ = try await client.listOutboxMessages(.init(), metadata: gatewayMetadata(for: tokens)) }
          #expect(error?.code == .permissionDenied)
          let grant = await rpcError {
            _ = try await client.grantRole(
              .with {
                $0.account = .with { $0.email = "ada@example.com" }
                $0.role = .admin
              },
              metadata: gatewayMetadata(for: tokens)
            )
          }
          #expect(grant?.code == .permissionDenied)
        }
        let outbox = try await client.listOutboxMessages(.with { $0.limit = 5 }, metadata: gatewayMetadata(for: admin))
        #expect(outbox.messages.allSatisfy { $0.channel == .email || $0.channel == .sms })
        #expect(outbox.messages.contains { $0.channel == .email })
        let granted = try await client.grantRole(
          .with {
            $0.account = .with { $0.email = "ada@example.com" }
            $0.role = .driver
          },
          metadata: gatewayMetadata(for: admin)
        )
        #expect(granted.profile.roles == [.passenger, .driver])
        let missing = await rpcError { _ = try await client.grantRole(.init(), metadata: gatewayMetadata(for: admin)) }
        #expect(missing?.fieldViolations.map(\.field).sorted() == ["account", "role"])
      }
    }
  }

  @Test("WatchRevocations: only the gateway; first the recent revocations, then each as it happens")
  func watchRevocations() async throws {
    let identity = try await TestIdentity()
    let earlier = try await identity.signedIn("ada@example.com")
    try await identity.domain.logout(userID: earlier.userID, sessionID: earlier.sessionID)
    let current = try await identity.domain.login(email: "ada@example.com", password: TestIdentity.password)

    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.dispatch) { client in
        let refused = await rpcError {
          try await client.watchRevocations(.init()) { response in
            for try await _ in response.messages {}
          }
        }
        #expect(refused?.code == .permissionDenied)
      }
      try await call.callAs(pki.gateway) { client in
        let (first, second) = try await client.watchRevocations(.init()) { response in
          var messages = response.messages.makeAsyncIterator()
          let first = try await messages.next()
          // Revoke while the stream is open: the next message names the session.
          try await identity.domain.logout(userID: current.userID, sessionID: current.sessionID)
          let second = try await messages.next()
          return (first, second)
        }
        #expect(first?.sessionIds == [earlier.sessionID])
        #expect(first?.rememberUntil.date == identity.clock.now().addingTimeInterval(300))
        #expect(second?.sessionIds == [current.sessionID])
      }
    }
  }

  @Test("A cannot read or change B's data through the API")
  func isolation() async throws {
    let identity = try await TestIdentity()
    let ada = try await identity.signedIn("ada@example.com")
    let eve = try await identity.signedIn("eve@example.com", firstName: "Eve")
    let contact = try await identity.domain.addEmergencyContact(userID: ada.userID, name: "Mum", phone: "+393330000000", channel: .sms)
    try await withIdentityOverTLS(identity) { call in
      try await call.callAs(pki.gateway) { client in
        let eveMetadata = gatewayMetadata(for: eve)
        #expect(try await client.listEmergencyContacts(.init(), metadata: eveMetadata).contacts.isEmpty)
        let update = await rpcError {
          _ = try await client.updateEmergencyContact(
            .with {
              $0.contactID = contact.id
              $0.name = "Eve"
            },
            metadata: eveMetadata
          )
        }
        #expect(update?.code == .notFound)
        let remove = await rpcError { _ = try await client.removeEmergencyContact(.with { $0.contactID = contact.id }, metadata: eveMetadata) }
        #expect(remove?.code == .notFound)
        #expect(try await client.getMe(.init(), metadata: eveMetadata).profile.email == "eve@example.com")
        let logout = try await client.logout(.init(), metadata: eveMetadata)
        _ = logout
        #expect(try await identity.store.isSessionOpen(id: ada.sessionID))
      }
    }
    #expect(try await identity.domain.emergencyContacts(userID: ada.userID) == [contact])
  }
}
