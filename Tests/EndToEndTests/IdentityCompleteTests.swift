import BinarioProto
import BinarioServiceKit
import BinarioTestSupport
import Foundation
import GRPCCore
import Testing

/// Every identity feature the five apps need, through the gateway, on one suite start: real
/// processes, real TLS, real SQLite, and a Google-like sign-in provider on loopback.
@Suite("Identity, complete, end to end through the gateway", .serialized)
struct IdentityCompleteTests {
  @Test func everySignUpRecoveryProviderCardContactAndAdministration() async throws {
    let provider = try await TestOpenIDProvider.make()
    let keys = try await StaticHTTPServer.start()
    defer { Task { await keys.stop() } }
    keys.serve(try provider.jwks(), at: "/certs")
    let flags = RunningSuite.ExtraFlags(identity: [
      "--google-client-id", TestOpenIDProvider.clientID,
      "--google-issuer", TestOpenIDProvider.issuer,
      "--google-keys-url", keys.url("/certs"),
    ])
    try await RunningSuite.with(extraFlags: flags) { suite in
      try await suite.withGatewayClient { identity in
        let admin = try await identity.signInAdmin()
        let sam = try await signUpMinimally(identity, admin: admin)
        try await verifyPhone(identity, sam, admin: admin)
        try await resetPassword(identity, admin: admin)
        try await signInWithGoogle(identity, provider: provider)
        try await paymentCards(identity, sam)
        try await contactBecomesFriend(identity, sam, admin: admin)
        try await administration(identity, admin: admin)
        try await internalMethodsAreNotRouted(identity, sam)
        try await badInputNamesTheField(identity, sam, admin: admin)
      }
    }
  }

  /// SubscribeME's form: a name, an email and a password.
  func signUpMinimally(_ identity: IdentityClient, admin: Binario_Identity_V1_TokenPair) async throws -> Binario_Identity_V1_TokenPair {
    _ = try await identity.register(
      .with {
        $0.email = "sam@example.com"
        $0.password = "a-good-password-1"
        $0.firstName = "Sam"
      }
    )
    let code = try await identity.confirmationCode(for: "sam@example.com", admin: admin)
    _ = try await identity.confirmEmail(
      .with {
        $0.email = "sam@example.com"
        $0.code = code
      }
    )
    let tokens = try await identity.login(
      .with {
        $0.email = "sam@example.com"
        $0.password = "a-good-password-1"
      }
    ).tokens
    let me = try await identity.getMe(.init(), metadata: bearer(tokens)).profile
    #expect(me.lastName.isEmpty && me.phone.isEmpty && me.birthDate.isEmpty && me.gender == .unspecified)
    // A short password is still refused, naming the field (10+ characters, stricter than SubscribeME's 6).
    let weak = await #expect(throws: RPCError.self) {
      _ = try await identity.register(
        .with {
          $0.email = "x@example.com"
          $0.password = "123456"
          $0.firstName = "X"
        }
      )
    }
    #expect(weak?.code == .invalidArgument)
    return tokens
  }

  func verifyPhone(_ identity: IdentityClient, _ sam: Binario_Identity_V1_TokenPair, admin: Binario_Identity_V1_TokenPair) async throws {
    let updated = try await identity.updateMe(.with { $0.phone = "+393471112233" }, metadata: bearer(sam)).profile
    #expect(!updated.phoneVerified)
    let wrong = await #expect(throws: RPCError.self) {
      _ = try await identity.verifyPhone(.with { $0.code = "12" }, metadata: bearer(sam))
    }
    #expect(wrong?.code == .invalidArgument)
    let code = try await identity.phoneCode(for: "+393471112233", admin: admin)
    let verified = try await identity.verifyPhone(.with { $0.code = code }, metadata: bearer(sam)).profile
    #expect(verified.phoneVerified && verified.phone == "+393471112233")
  }

  func resetPassword(_ identity: IdentityClient, admin: Binario_Identity_V1_TokenPair) async throws {
    let before = try await identity.signUp(email: "rita@example.com", admin: admin)
    _ = try await identity.requestPasswordReset(.with { $0.email = "rita@example.com" })
    _ = try await identity.requestPasswordReset(.with { $0.email = "nobody@example.com" })
    let token = try await identity.passwordResetToken(for: "rita@example.com", admin: admin)
    _ = try await identity.resetPassword(
      .with {
        $0.token = token
        $0.newPassword = "a-new-password-2"
      }
    )
    let refresh = await #expect(throws: RPCError.self) {
      _ = try await identity.refresh(.with { $0.refreshToken = before.refreshToken })
    }
    #expect(refresh?.code == .unauthenticated)
    let reused = await #expect(throws: RPCError.self) {
      _ = try await identity.resetPassword(
        .with {
          $0.token = token
          $0.newPassword = "a-third-password-3"
        }
      )
    }
    #expect(reused?.code == .unauthenticated)
    _ = try await identity.login(
      .with {
        $0.email = "rita@example.com"
        $0.password = "a-new-password-2"
      }
    )
  }

  func signInWithGoogle(_ identity: IdentityClient, provider: TestOpenIDProvider) async throws {
    let token = try await provider.idToken(.init(subject: "g-123", email: "grace@gmail.com"))
    let first = try await identity.loginWithGoogle(.with { $0.idToken = token })
    #expect(first.created)
    let me = try await identity.getMe(.init(), metadata: bearer(first.tokens)).profile
    #expect(me.email == "grace@gmail.com" && me.emailConfirmed && me.linkedProviders == ["google"] && !me.passwordSet)
    let again = try await identity.loginWithGoogle(.with { $0.idToken = token })
    #expect(!again.created && again.tokens.userID == first.tokens.userID)

    var wrongAudience = TestOpenIDProvider.Claims(subject: "g-123", email: "grace@gmail.com")
    wrongAudience.audience = "another-app.apps.example"
    let wrongToken = try await provider.idToken(wrongAudience)
    let refused = await #expect(throws: RPCError.self) {
      _ = try await identity.loginWithGoogle(.with { $0.idToken = wrongToken })
    }
    #expect(refused?.code == .unauthenticated)
  }

  func paymentCards(_ identity: IdentityClient, _ sam: Binario_Identity_V1_TokenPair) async throws {
    let visa = try await identity.addPaymentMethod(
      .with {
        $0.cardNumber = "4242 4242 4242 4242"
        $0.expiryMonth = 12
        $0.expiryYear = 2040
        $0.securityCode = "123"
      },
      metadata: bearer(sam)
    ).paymentMethod
    #expect(visa.isDefault && visa.brand == "visa" && visa.last4 == "4242")
    let mastercard = try await identity.addPaymentMethod(
      .with {
        $0.cardNumber = "5555555555554444"
        $0.expiryMonth = 1
        $0.expiryYear = 2041
        $0.securityCode = "321"
      },
      metadata: bearer(sam)
    ).paymentMethod
    _ = try await identity.setDefaultPaymentMethod(.with { $0.paymentMethodID = mastercard.paymentMethodID }, metadata: bearer(sam))
    let listed = try await identity.listPaymentMethods(.init(), metadata: bearer(sam)).paymentMethods
    #expect(listed.map(\.paymentMethodID) == [mastercard.paymentMethodID, visa.paymentMethodID])

    let declined = await #expect(throws: RPCError.self) {
      _ = try await identity.addPaymentMethod(
        .with {
          $0.cardNumber = "4000000000000002"
          $0.expiryMonth = 1
          $0.expiryYear = 2040
          $0.securityCode = "123"
        },
        metadata: bearer(sam)
      )
    }
    #expect(declined?.code == .failedPrecondition)
    let malformed = await #expect(throws: RPCError.self) {
      _ = try await identity.addPaymentMethod(.with { $0.cardNumber = "1234" }, metadata: bearer(sam))
    }
    #expect(malformed?.code == .invalidArgument)
    #expect(malformed?.fieldViolations.map(\.field).sorted() == ["card_number", "expiry_month", "expiry_year", "security_code"])
    _ = try await identity.removePaymentMethod(.with { $0.paymentMethodID = mastercard.paymentMethodID }, metadata: bearer(sam))
    #expect(try await identity.listPaymentMethods(.init(), metadata: bearer(sam)).paymentMethods.map(\.isDefault) == [true])
  }

  func contactBecomesFriend(
    _ identity: IdentityClient,
    _ sam: Binario_Identity_V1_TokenPair,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let added = try await identity.addContact(
      .with {
        $0.name = "Tina"
        $0.email = "tina@example.com"
      },
      metadata: bearer(sam)
    )
    guard case .pendingContact(let contact) = added.outcome else {
      Issue.record("expected a pending contact, got \(added)")
      return
    }
    let pending = try await identity.listFriends(.init(), metadata: bearer(sam))
    #expect(pending.friends.isEmpty && pending.pendingContacts.map(\.contactID) == [contact.contactID])
    let tina = try await identity.signUp(email: "tina@example.com", firstName: "Tina", admin: admin)
    let friends = try await identity.listFriends(.init(), metadata: bearer(sam))
    #expect(friends.pendingContacts.isEmpty)
    #expect(friends.friends.map(\.userID) == [tina.userID])
    // A registered address gets a friend request instead.
    let request = try await identity.addContact(
      .with {
        $0.name = "Rita"
        $0.email = "rita@example.com"
      },
      metadata: bearer(sam)
    )
    guard case .friendRequest = request.outcome else {
      Issue.record("expected a friend request, got \(request)")
      return
    }
  }

  func administration(_ identity: IdentityClient, admin: Binario_Identity_V1_TokenPair) async throws {
    let page = try await identity.listAccounts(
      .with {
        $0.query = "example.com"
        $0.pageSize = 2
      },
      metadata: bearer(admin)
    )
    #expect(page.accounts.count == 2 && !page.nextPageToken.isEmpty)
    let next = try await identity.listAccounts(
      .with {
        $0.query = "example.com"
        $0.pageSize = 2
        $0.pageToken = page.nextPageToken
      },
      metadata: bearer(admin)
    )
    #expect(Set(next.accounts.map(\.email)).isDisjoint(with: page.accounts.map(\.email)))
    let badToken = await #expect(throws: RPCError.self) {
      _ = try await identity.listAccounts(.with { $0.pageToken = "not-ours" }, metadata: bearer(admin))
    }
    #expect(badToken?.fieldViolations.map(\.field) == ["page_token"])

    let tina = try await identity.login(
      .with {
        $0.email = "tina@example.com"
        $0.password = "a-good-password-1"
      }
    ).tokens
    let edited = try await identity.updateAccount(
      .with {
        $0.account = .with { $0.email = "tina@example.com" }
        $0.lastName = "Turner"
      },
      metadata: bearer(admin)
    ).profile
    #expect(edited.lastName == "Turner")
    _ = try await identity.disableAccount(
      .with {
        $0.account = .with { $0.email = "tina@example.com" }
        $0.reason = "chargeback"
      },
      metadata: bearer(admin)
    )
    let refused = await #expect(throws: RPCError.self) { _ = try await identity.getMe(.init(), metadata: bearer(tina)) }
    #expect(refused?.code == .unauthenticated)
    let login = await #expect(throws: RPCError.self) {
      _ = try await identity.login(
        .with {
          $0.email = "tina@example.com"
          $0.password = "a-good-password-1"
        }
      )
    }
    #expect(login?.code == .permissionDenied)
    _ = try await identity.enableAccount(.with { $0.account = .with { $0.email = "tina@example.com" } }, metadata: bearer(admin))
    _ = try await identity.login(
      .with {
        $0.email = "tina@example.com"
        $0.password = "a-good-password-1"
      }
    )

    let driver = try await identity.createDriver(
      .with {
        $0.email = "dan@example.com"
        $0.password = "a-driver-password-1"
        $0.firstName = "Dan"
        $0.phone = "+393339876543"
      },
      metadata: bearer(admin)
    ).profile
    let notDriver = await #expect(throws: RPCError.self) {
      _ = try await identity.deleteDriver(.with { $0.account = .with { $0.email = "tina@example.com" } }, metadata: bearer(admin))
    }
    #expect(notDriver?.code == .failedPrecondition)
    _ = try await identity.deleteDriver(.with { $0.account = .with { $0.userID = driver.userID } }, metadata: bearer(admin))
    let gone = await #expect(throws: RPCError.self) {
      _ = try await identity.getAccount(.with { $0.account = .with { $0.userID = driver.userID } }, metadata: bearer(admin))
    }
    #expect(gone?.code == .notFound)

    let audit = try await identity.listAuditEntries(.init(), metadata: bearer(admin)).entries
    #expect(audit.map(\.action) == ["delete-driver", "create-driver", "enable-account", "disable-account", "update-account"])
    #expect(audit.allSatisfy { $0.actorEmail == RunningSuite.adminEmail })
    #expect(audit.first { $0.action == "disable-account" }?.detail == "chargeback")

    // Passengers reach none of it.
    let passenger = await #expect(throws: RPCError.self) { _ = try await identity.listAccounts(.init(), metadata: bearer(tina)) }
    #expect(passenger?.code == .permissionDenied || passenger?.code == .unauthenticated)
  }

  /// Each new method's bad input, through the gateway: INVALID_ARGUMENT naming the fields.
  func badInputNamesTheField(
    _ identity: IdentityClient,
    _ sam: Binario_Identity_V1_TokenPair,
    admin: Binario_Identity_V1_TokenPair
  ) async throws {
    let cases: [(fields: [String], call: () async throws -> Void)] = [
      (["email"], { _ = try await identity.requestPasswordReset(.with { $0.email = "nope" }) }),
      (["new_password", "token"], { _ = try await identity.resetPassword(.with { $0.newPassword = "short" }) }),
      (["id_token"], { _ = try await identity.loginWithGoogle(.init()) }),
      (["code"], { _ = try await identity.verifyPhone(.with { $0.code = "abcdef" }, metadata: bearer(sam)) }),
      (["email", "name"], { _ = try await identity.addContact(.with { $0.email = "x@" }, metadata: bearer(sam)) }),
      (["contact_id"], { _ = try await identity.removeContact(.init(), metadata: bearer(sam)) }),
      (["payment_method_id"], { _ = try await identity.setDefaultPaymentMethod(.init(), metadata: bearer(sam)) }),
      (["payment_method_id"], { _ = try await identity.removePaymentMethod(.init(), metadata: bearer(sam)) }),
      (
        ["birth_date", "phone"],
        {
          _ = try await identity.updateMe(
            .with {
              $0.phone = "0039"
              $0.birthDate = "31/12/1990"
            },
            metadata: bearer(sam)
          )
        }
      ),
      (["page_size"], { _ = try await identity.listAccounts(.with { $0.pageSize = 1000 }, metadata: bearer(admin)) }),
      (["account"], { _ = try await identity.getAccount(.init(), metadata: bearer(admin)) }),
      (["account"], { _ = try await identity.disableAccount(.init(), metadata: bearer(admin)) }),
      (["account.email"], { _ = try await identity.enableAccount(.with { $0.account = .with { $0.email = " " } }, metadata: bearer(admin)) }),
      (
        ["first_name"],
        {
          _ = try await identity.updateAccount(
            .with {
              $0.account = .with { $0.email = "sam@example.com" }
              $0.firstName = ""
            },
            metadata: bearer(admin)
          )
        }
      ),
    ]
    for (fields, call) in cases {
      let error = await #expect(throws: RPCError.self) { try await call() }
      #expect(error?.code == .invalidArgument, "\(fields)")
      #expect(error?.fieldViolations.map(\.field).sorted() == fields, "\(fields)")
    }
  }

  func internalMethodsAreNotRouted(_ identity: IdentityClient, _ sam: Binario_Identity_V1_TokenPair) async throws {
    let calls: [() async throws -> Void] = [
      { _ = try await identity.lookupAccounts(.with { $0.emails = ["sam@example.com"] }, metadata: bearer(sam)) },
      {
        _ = try await identity.areFriends(
          .with {
            $0.userID = sam.userID
            $0.otherUserID = "x"
          },
          metadata: bearer(sam)
        )
      },
      { _ = try await identity.getDefaultPaymentMethod(.with { $0.userID = sam.userID }, metadata: bearer(sam)) },
    ]
    for call in calls {
      let error = await #expect(throws: RPCError.self) { try await call() }
      #expect(error?.code == .permissionDenied)
    }
  }
}
