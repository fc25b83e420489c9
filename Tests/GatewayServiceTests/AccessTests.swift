import BinarioAuth
import BinarioProto
import BinarioTransport
import Crypto
import Foundation
import GRPCCore
import GRPCProtobuf
import GatewayService
import Synchronization
import Testing

/// A signer for identity's tokens, and the fake identity upstream that publishes its key.
private struct Issuer {
  let clock = ManualGatewayClock()
  let signer = AccessTokenSigner(keyID: "k1", privateKey: Curve25519.Signing.PrivateKey())
  let identity: FakeIdentityService

  init() {
    self.identity = FakeIdentityService(keys: ["k1": self.signer.publicKey])
  }

  func token(
    user: String = "u-1",
    roles: [Role] = [.passenger],
    session: String = "s-1",
    lifetime: TimeInterval = 600,
    signer: AccessTokenSigner? = nil
  ) throws -> String {
    try (signer ?? self.signer).sign(
      AccessTokenClaims(
        userID: user,
        roles: roles.map(\.rawValue),
        sessionID: session,
        tokenID: UUID().uuidString,
        issuedAt: self.clock.now,
        expiresAt: self.clock.now.addingTimeInterval(lifetime)
      )
    )
  }
}

private func bearer(_ token: String) -> Metadata { ["authorization": .string("Bearer \(token)")] }

/// Runs the gateway with its real access check in front of the fake identity, keys loaded.
private func withIdentityBehindGateway(
  _ issuer: Issuer,
  _ body: (_ identity: Binario_Identity_V1_Identity.Client<BinarioClientTransport>, _ gateway: RunningGateway) async throws -> Void
) async throws {
  try await withUpstream(services: [issuer.identity]) { upstream in
    try await withGateway(upstreams: ["identity": upstream.port], authorizer: nil, clock: issuer.clock) { gateway in
      await gateway.gateway.signingKeys.waitUntilLoaded()
      try await withGatewayClient(gateway) { client in
        try await body(Binario_Identity_V1_Identity.Client(wrapping: client), gateway)
      }
    }
  }
}

private func code(_ body: () async throws -> Void) async -> RPCError.Code? {
  do {
    try await body()
    return nil
  } catch let error as RPCError {
    return error.code
  } catch {
    return .unknown
  }
}

@Suite("Access: tokens, roles, internal methods and revocation at the gateway")
struct AccessTests {
  @Test func aValidTokenReachesTheServiceAsTheCaller() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { identity, _ in
      let me = try await identity.getMe(.init(), metadata: bearer(try issuer.token(user: "u-77")))
      #expect(me.profile.userID == "u-77")
    }
  }

  @Test func signedInMethodsNeedAValidToken() async throws {
    let issuer = Issuer()
    let forger = AccessTokenSigner(keyID: "k1", privateKey: Curve25519.Signing.PrivateKey())
    try await withIdentityBehindGateway(issuer) { identity, _ in
      #expect(await code { _ = try await identity.getMe(.init()) } == .unauthenticated)
      #expect(await code { _ = try await identity.getMe(.init(), metadata: bearer("not.a.token")) } == .unauthenticated)
      #expect(await code { _ = try await identity.getMe(.init(), metadata: ["authorization": "Basic dTpw"]) } == .unauthenticated)
      let forged = try issuer.token(signer: forger)
      #expect(await code { _ = try await identity.getMe(.init(), metadata: bearer(forged)) } == .unauthenticated)
      let expiring = try issuer.token(lifetime: 60)
      issuer.clock.advance(by: .seconds(61))
      #expect(await code { _ = try await identity.getMe(.init(), metadata: bearer(expiring)) } == .unauthenticated)
    }
  }

  @Test func aTokenThatWorkedIsRefusedOnceExpired() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { identity, _ in
      let token = try issuer.token(user: "u-5", lifetime: 60)
      #expect(try await identity.getMe(.init(), metadata: bearer(token)).profile.userID == "u-5")
      #expect(try await identity.getMe(.init(), metadata: bearer(token)).profile.userID == "u-5")
      issuer.clock.advance(by: .seconds(60))
      #expect(await code { _ = try await identity.getMe(.init(), metadata: bearer(token)) } == .unauthenticated)
    }
  }

  @Test func aMissingRoleIsPermissionDenied() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { identity, _ in
      let passenger = try issuer.token(roles: [.passenger, .driver])
      #expect(await code { _ = try await identity.createDriver(.init(), metadata: bearer(passenger)) } == .permissionDenied)
      let admin = try issuer.token(roles: [.admin])
      #expect(await code { _ = try await identity.createDriver(.init(), metadata: bearer(admin)) } == nil)
    }
  }

  @Test func internalMethodsAreNeverForwarded() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { identity, _ in
      let admin = try issuer.token(roles: [.admin])
      let refused = await code {
        try await identity.watchRevocations(.init(), metadata: bearer(admin)) { response in
          for try await _ in response.messages {}
        }
      }
      #expect(refused == .permissionDenied)
    }
  }

  /// As every gRPC server answers a method it does not have (the service exists; the method
  /// does not, so no rule names it).
  @Test func anUnknownMethodOfARoutedServiceIsUnimplemented() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { _, gateway in
      try await withGatewayClient(gateway) { client in
        let descriptor = MethodDescriptor(fullyQualifiedService: "binario.identity.v1.Identity", method: "Undeclared", type: .unary)
        let refused = await code {
          _ = try await client.unary(
            request: ClientRequest(message: Binario_Identity_V1_GetMeRequest()),
            descriptor: descriptor,
            serializer: ProtobufSerializer<Binario_Identity_V1_GetMeRequest>(),
            deserializer: ProtobufDeserializer<Binario_Identity_V1_GetMeResponse>(),
            options: .defaults
          ) { try $0.message }
        }
        #expect(refused == .unimplemented)
      }
    }
  }

  @Test func publicMethodsNeedNoTokenButRefuseABadOne() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { identity, _ in
      let keys = try await identity.getSigningKeys(.init())
      #expect(keys.keys.map(\.keyID) == ["k1"])
      #expect(await code { _ = try await identity.getSigningKeys(.init(), metadata: bearer("garbage")) } == .unauthenticated)
    }
  }

  @Test func aSessionRevokedByIdentityIsRefusedAtOnce() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { identity, gateway in
      let token = try issuer.token(session: "s-gone")
      _ = try await identity.getMe(.init(), metadata: bearer(token))
      issuer.identity.revoke(["s-gone"], until: issuer.clock.now.addingTimeInterval(600))
      await gateway.gateway.revokedSessions.waitUntilRevoked("s-gone")
      #expect(await code { _ = try await identity.getMe(.init(), metadata: bearer(token)) } == .unauthenticated)
    }
  }

  @Test func afterLogoutTheSameTokenIsRefusedByTheNextCall() async throws {
    let issuer = Issuer()
    try await withIdentityBehindGateway(issuer) { identity, _ in
      let token = try issuer.token(session: "s-out")
      let other = try issuer.token(user: "u-2", session: "s-other")
      _ = try await identity.logout(.init(), metadata: bearer(token))
      #expect(await code { _ = try await identity.getMe(.init(), metadata: bearer(token)) } == .unauthenticated)
      #expect(try await identity.getMe(.init(), metadata: bearer(other)).profile.userID == "u-2")
    }
  }

  @Test func aTokenSignedWithANewKeyWorksOnceTheGatewayHasFetchedIt() async throws {
    let issuer = Issuer()
    let rotated = AccessTokenSigner(keyID: "k2", privateKey: Curve25519.Signing.PrivateKey())
    try await withIdentityBehindGateway(issuer) { identity, gateway in
      issuer.identity.setKeys(["k1": issuer.signer.publicKey, "k2": rotated.publicKey])
      let token = try issuer.token(user: "u-new", signer: rotated)
      // The first call names a key the gateway lacks: refused, and a fetch starts.
      #expect(await code { _ = try await identity.getMe(.init(), metadata: bearer(token)) } == .unauthenticated)
      await gateway.gateway.signingKeys.waitUntilLoaded(keyID: "k2")
      #expect(try await identity.getMe(.init(), metadata: bearer(token)).profile.userID == "u-new")
    }
  }
}

@Suite("Reading the bearer token")
struct BearerTokenTests {
  @Test(arguments: [
    ("Bearer abc.def.ghi", "abc.def.ghi"),
    ("bearer abc", "abc"),
    ("BEARER \t abc \t", "abc"),
    ("Bearer  a b ", "a b"),
  ])
  func theTokenAfterTheScheme(authorization: String, token: String) {
    #expect(AccessPolicyAuthorizer.bearerToken(authorization) == token)
  }

  @Test(arguments: ["", "Bearer", "Bearer ", "Bearer    ", "Basic abc", "Bearer\tabc", "Bearer\0abc", "Bearerabc", "Béarer abc"])
  func notABearerToken(authorization: String) {
    #expect(AccessPolicyAuthorizer.bearerToken(authorization) == nil)
  }
}

@Suite("Access: device tokens reach the upload methods and nothing else")
struct DeviceAccessTests {
  let clock = ManualGatewayClock()
  var authorizer: AccessPolicyAuthorizer {
    AccessPolicyAuthorizer(policy: .all, keys: SigningKeyStore(clock: clock), revokedSessions: RevokedSessions(clock: clock), clock: clock)
  }
  let upload = "/binario.telemetry.v1.Telemetry/UploadReadings"
  let token = "bdt_" + String(repeating: "Zz9-_", count: 8) + "abc"

  @Test func aWellShapedDeviceTokenIsForwardedToAnUploadMethod() {
    #expect(authorizer.authorize(method: upload, authorization: "Device \(token)") == .allowDevice(token: token))
    #expect(authorizer.authorize(method: upload, authorization: "device  \(token) ") == .allowDevice(token: token))
    #expect(
      authorizer.authorize(method: "/binario.telemetry.v1.Telemetry/StreamReadings", authorization: "Device \(token)") == .allowDevice(token: token)
    )
  }

  @Test func uploadMethodsRefuseEverythingButADeviceToken() {
    for authorization in [nil, "Bearer a.b.c", "Device bdt_short", "Device " + token + "x"] {
      guard case .deny(let refusal) = authorizer.authorize(method: upload, authorization: authorization) else {
        Issue.record("\(authorization ?? "no authorization") was let through")
        continue
      }
      #expect(refusal.code == WireStatusCode.unauthenticated)
    }
  }

  @Test func aDeviceTokenOpensNothingElse() {
    for method in [
      "/binario.telemetry.v1.Telemetry/ListDevices", "/binario.telemetry.v1.Telemetry/ListReferenceSensors",
      "/binario.identity.v1.Identity/Login", "/binario.telemetry.v1.Telemetry/ImportReferenceData",
    ] {
      guard case .deny(let refusal) = authorizer.authorize(method: method, authorization: "Device \(token)") else {
        Issue.record("a device token opened \(method)")
        continue
      }
      #expect(refusal.code == WireStatusCode.unauthenticated)
    }
  }
}

@Suite("Access: a revoked session's open calls end")
struct RevokedSessionCallsTests {
  @Test func aRevocationEndsEachOpenCallOfTheSessionOnce() {
    let clock = ManualGatewayClock()
    let sessions = RevokedSessions(clock: clock)
    let ended = Mutex<[String]>([])
    let first = sessions.watch("s-a") { ended.withLock { $0.append("a1") } }
    _ = sessions.watch("s-a") { ended.withLock { $0.append("a2") } }
    let other = sessions.watch("s-b") { ended.withLock { $0.append("b") } }
    sessions.unwatch(first)  // that call ended on its own
    sessions.revoke(["s-a"], until: clock.now.addingTimeInterval(60))
    #expect(ended.withLock { $0 } == ["a2"])
    #expect(sessions.watchedCalls == 1)
    sessions.revoke(["s-a"], until: clock.now.addingTimeInterval(120))
    #expect(ended.withLock { $0 } == ["a2"])
    // A revocation that has already run out (a replay) ends nothing.
    sessions.revoke(["s-b"], until: clock.now.addingTimeInterval(-1))
    #expect(ended.withLock { $0 } == ["a2"])
    sessions.unwatch(other)
    #expect(sessions.watchedCalls == 0)
  }
}

@Suite("Access: which calls a revocation ends")
struct StreamingMethodsTests {
  @Test func onlyStreamsAreEndedByARevocation() {
    let methods = GatewayCallForwarder.streamingMethods
    #expect(methods.contains("/binario.scheduling.v1.Notifications/WatchNotifications"))
    #expect(methods.contains("/binario.dispatch.v1.Dispatch/WatchRide"))
    #expect(!methods.contains("/binario.identity.v1.Identity/Logout"))
    #expect(!methods.contains("/binario.identity.v1.Identity/DeleteMe"))
  }
}
