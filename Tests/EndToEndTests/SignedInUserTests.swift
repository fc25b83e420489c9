import BinarioProto
import BinarioTestSupport
import Foundation
import GRPCCore
import Testing

/// A user's whole journey through the front door: real processes, real TLS, real SQLite.
@Suite("A signed-in user, end to end through the gateway", .serialized)
struct SignedInUserTests {
  @Test func registerConfirmLoginMeRefreshLogoutThenTheOldTokenIsRefused() async throws {
    try await RunningSuite.with { suite in
      try await suite.withGatewayClient { identity in
        let admin = try await identity.signInAdmin()
        let email = "grace@example.com"
        _ = try await identity.register(
          .with {
            $0.email = email
            $0.password = "a-good-password-1"
            $0.firstName = "Grace"
            $0.lastName = "Hopper"
            $0.phone = "+393331234567"
            $0.birthDate = "1906-12-09"
            $0.gender = .female
          }
        )
        // Unconfirmed: login is refused with a precondition failure.
        let unconfirmed = await #expect(throws: RPCError.self) {
          _ = try await identity.login(
            .with {
              $0.email = email
              $0.password = "a-good-password-1"
            }
          )
        }
        #expect(unconfirmed?.code == .failedPrecondition)
        #expect(unconfirmed?.localizedMessage?.locale == "en-GB", "no language asked: the English words")
        // The Binario door, like the others: the accept-language metadata key asks for Italian.
        let inItalian = await #expect(throws: RPCError.self) {
          _ = try await identity.login(
            .with {
              $0.email = email
              $0.password = "a-good-password-1"
            },
            metadata: ["accept-language": "it-IT"]
          )
        }
        #expect(inItalian?.localizedMessage?.locale == "it-IT")
        #expect(inItalian?.localizedMessage?.message.hasPrefix("conferma prima il tuo indirizzo") == true, "\(String(describing: inItalian))")
        #expect(inItalian?.message.hasPrefix("confirm your address first") == true)

        let code = try await identity.confirmationCode(for: email, admin: admin)
        _ = try await identity.confirmEmail(
          .with {
            $0.email = email
            $0.code = code
          }
        )
        let tokens = try await identity.login(
          .with {
            $0.email = email
            $0.password = "a-good-password-1"
          }
        ).tokens

        let me = try await identity.getMe(.init(), metadata: bearer(tokens)).profile
        #expect(me.email == email)
        #expect(me.firstName == "Grace")
        #expect(me.roles == [.passenger])

        let refreshed = try await identity.refresh(.with { $0.refreshToken = tokens.refreshToken }).tokens
        #expect(refreshed.refreshToken != tokens.refreshToken)
        _ = try await identity.getMe(.init(), metadata: bearer(refreshed))

        _ = try await identity.logout(.init(), metadata: bearer(refreshed))
        let afterLogout = await #expect(throws: RPCError.self) {
          _ = try await identity.getMe(.init(), metadata: bearer(refreshed))
        }
        #expect(afterLogout?.code == .unauthenticated)
        let refreshAfterLogout = await #expect(throws: RPCError.self) {
          _ = try await identity.refresh(.with { $0.refreshToken = refreshed.refreshToken })
        }
        #expect(refreshAfterLogout?.code == .unauthenticated)
      }
    }
  }

  @Test func anAcknowledgedRegistrationSurvivesKillMinus9OfIdentity() async throws {
    try await RunningSuite.with { suite in
      let email = "survivor@example.com"
      try await suite.withGatewayClient { identity in
        _ = try await identity.register(
          .with {
            $0.email = email
            $0.password = "a-good-password-1"
            $0.firstName = "Sur"
            $0.lastName = "Vivor"
            $0.phone = "+393331234567"
            $0.birthDate = "1990-01-01"
            $0.gender = .other
          }
        )
      }
      let port = suite.identityPort
      suite.killIdentity()
      try await suite.startIdentity(port: port)
      try await suite.waitUntilTheGatewaySeesIdentityServing()

      try await suite.withGatewayClient { identity in
        let admin = try await identity.signInAdmin()
        let code = try await identity.confirmationCode(for: email, admin: admin)
        _ = try await identity.confirmEmail(
          .with {
            $0.email = email
            $0.code = code
          }
        )
        let tokens = try await identity.login(
          .with {
            $0.email = email
            $0.password = "a-good-password-1"
          }
        ).tokens
        #expect(try await identity.getMe(.init(), metadata: bearer(tokens)).profile.email == email)
      }
    }
  }

  @Test func stringsThatLookLikeSQLAreStoredAndReturnedLiterally() async throws {
    try await RunningSuite.with { suite in
      try await suite.withGatewayClient { identity in
        let admin = try await identity.signInAdmin()
        let name = "Robert'); DROP TABLE accounts;-- \"quoted\""
        let tokens = try await identity.signUp(email: "bobby@example.com", firstName: name, admin: admin)
        #expect(try await identity.getMe(.init(), metadata: bearer(tokens)).profile.firstName == name)
      }
    }
  }
}

@Suite("Who may do what, end to end", .serialized)
struct AccessEndToEndTests {
  @Test func passengersAndDriversCannotCallAdminMethods() async throws {
    try await RunningSuite.with { suite in
      try await suite.withGatewayClient { identity in
        let admin = try await identity.signInAdmin()
        let passenger = try await identity.signUp(email: "pat@example.com", admin: admin)
        _ = try await identity.createDriver(
          .with {
            $0.email = "dan@example.com"
            $0.password = "a-good-password-2"
            $0.firstName = "Dan"
            $0.lastName = "Driver"
            $0.phone = "+393339876543"
            $0.birthDate = "1980-05-05"
            $0.gender = .male
          },
          metadata: bearer(admin)
        )
        let driver = try await identity.login(
          .with {
            $0.email = "dan@example.com"
            $0.password = "a-good-password-2"
          }
        ).tokens
        #expect(driver.roles.contains(.driver))

        for tokens in [passenger, driver] {
          let error = await #expect(throws: RPCError.self) {
            _ = try await identity.grantRole(
              .with {
                $0.account = .with { $0.email = "pat@example.com" }
                $0.role = .admin
              },
              metadata: bearer(tokens)
            )
          }
          #expect(error?.code == .permissionDenied)
        }
        // Without a token at all: not signed in.
        let anonymous = await #expect(throws: RPCError.self) {
          _ = try await identity.listOutboxMessages(.init())
        }
        #expect(anonymous?.code == .unauthenticated)
      }
    }
  }

  @Test func oneUserCannotReadOrChangeAnothersData() async throws {
    try await RunningSuite.with { suite in
      try await suite.withGatewayClient { identity in
        let admin = try await identity.signInAdmin()
        let alice = try await identity.signUp(email: "alice@example.com", firstName: "Alice", admin: admin)
        let bob = try await identity.signUp(email: "bob@example.com", firstName: "Bob", admin: admin)
        let contact = try await identity.addEmergencyContact(
          .with {
            $0.name = "Mum"
            $0.phone = "+393330000001"
            $0.channel = .sms
          },
          metadata: bearer(alice)
        ).contact

        // Bob sees only his own (empty) list, and cannot change or remove Alice's contact.
        #expect(try await identity.listEmergencyContacts(.init(), metadata: bearer(bob)).contacts.isEmpty)
        let update = await #expect(throws: RPCError.self) {
          _ = try await identity.updateEmergencyContact(
            .with {
              $0.contactID = contact.contactID
              $0.name = "Not yours"
            },
            metadata: bearer(bob)
          )
        }
        #expect(update?.code == .notFound)
        let remove = await #expect(throws: RPCError.self) {
          _ = try await identity.removeEmergencyContact(.with { $0.contactID = contact.contactID }, metadata: bearer(bob))
        }
        #expect(remove?.code == .notFound)
        #expect(try await identity.listEmergencyContacts(.init(), metadata: bearer(alice)).contacts == [contact])

        // A client cannot pass itself off as Alice by sending the gateway's metadata itself.
        let forged = try await identity.getMe(
          .init(),
          metadata: bearer(bob).adding(["x-user-id": .string(alice.userID), "x-roles": "admin"])
        ).profile
        #expect(forged.userID == bob.userID)
      }
    }
  }

  @Test func anotherServicesCertificateCannotActAsAUserStraightToIdentity() async throws {
    try await RunningSuite.with { suite in
      let alice = try await suite.withGatewayClient { identity in
        try await identity.signUp(email: "alice@example.com", admin: try await identity.signInAdmin())
      }
      try await suite.withDirectIdentityClient(as: "ticketing") { identity in
        let error = await #expect(throws: RPCError.self) {
          _ = try await identity.getMe(
            .init(),
            metadata: ["x-user-id": .string(alice.userID), "x-roles": "passenger,admin", "x-session-id": "whatever"]
          )
        }
        #expect(error?.code == .unauthenticated)
        // Internal methods are for the gateway's identity only.
        let internalCall = await #expect(throws: RPCError.self) {
          try await identity.watchRevocations(.init()) { response in
            for try await _ in response.messages {}
          }
        }
        #expect(internalCall?.code == .permissionDenied)
      }
    }
  }
}

extension Metadata {
  func adding(_ other: Metadata) -> Metadata {
    var merged = self
    merged.add(contentsOf: other)
    return merged
  }
}
