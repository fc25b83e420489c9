import BinarioAuth
import BinarioTransport
import Foundation

/// The gateway's access check: each method's rule from Shared/Auth's ``MethodAccessPolicy``,
/// the bearer token verified with identity's current keys (``SigningKeyStore``) and checked
/// against the revoked sessions.
///
/// - A method without a rule (no service of the suite has it): `UNIMPLEMENTED`, as any gRPC
///   server answers a method it does not have.
/// - An internal (service-to-service) method: `PERMISSION_DENIED`.
/// - A public method: forwarded signed out without a token; with a valid one, on behalf of its
///   bearer; with an invalid one (malformed, forged, expired, revoked): `UNAUTHENTICATED`.
/// - Signed-in, driver and admin methods: `UNAUTHENTICATED` without a valid token,
///   `PERMISSION_DENIED` when the bearer lacks the role.
/// - Device methods: only with `authorization: Device <token>` of a token's shape, forwarded
///   for the service to check (``DeviceCredential``); a device token on any other method,
///   or an account's token on a device method: `UNAUTHENTICATED`.
/// - Before identity's keys are loaded, a call that carries a token: `UNAVAILABLE`.
public struct AccessPolicyAuthorizer: CallAuthorizer {
  public let policy: MethodAccessPolicy
  private let keys: SigningKeyStore
  private let revokedSessions: RevokedSessions
  private let clock: any GatewayClock
  private let cache = VerifiedTokenCache()

  public init(policy: MethodAccessPolicy, keys: SigningKeyStore, revokedSessions: RevokedSessions, clock: any GatewayClock) {
    self.policy = policy
    self.keys = keys
    self.revokedSessions = revokedSessions
    self.clock = clock
  }

  public func authorize(method: String, authorization: String?) -> AuthorizationDecision {
    guard let access = self.policy.access(forPath: method) else {
      return .deny(GatewayRefusal(code: WireStatusCode.unimplemented, message: "\(method) is not a method of any service here"))
    }
    guard let level = access.level else {
      return .deny(
        GatewayRefusal(code: WireStatusCode.permissionDenied, message: "\(method) is internal to the services; the gateway does not forward it")
      )
    }
    if let authorization, let deviceToken = DeviceCredential.token(fromAuthorization: authorization) {
      guard level == .device else {
        return .deny(
          GatewayRefusal(
            code: WireStatusCode.unauthenticated,
            message: "a device token only uploads its device's readings; \(method) needs authorization: Bearer <access token>"
          )
        )
      }
      guard DeviceCredential.looksValid(deviceToken) else {
        return .deny(GatewayRefusal(code: WireStatusCode.unauthenticated, message: "the device token is malformed (bdt_ and 43 characters)"))
      }
      return .allowDevice(token: deviceToken)
    }
    if level == .device {
      return .deny(
        GatewayRefusal(code: WireStatusCode.unauthenticated, message: "\(method) takes a device token: send authorization: Device <token>")
      )
    }
    guard let authorization else {
      if level.requiresSignIn {
        return .deny(
          GatewayRefusal(
            code: WireStatusCode.unauthenticated,
            message: "\(method) needs a signed-in caller; send authorization: Bearer <access token>"
          )
        )
      }
      return .allow(nil)
    }
    let token: VerifiedAccessToken
    switch self.verify(authorization) {
    case .failure(let refusal): return .deny(refusal)
    case .success(let verified): token = verified
    }
    guard level.admits(roles: token.roles) else {
      return .deny(GatewayRefusal(code: WireStatusCode.permissionDenied, message: "\(method) needs the \(level.rawValue) role"))
    }
    return .allow(token)
  }

  private func verify(_ authorization: String) -> Result<VerifiedAccessToken, GatewayRefusal> {
    guard let token = Self.bearerToken(authorization) else {
      return .failure(GatewayRefusal(code: WireStatusCode.unauthenticated, message: "the authorization metadata is not \"Bearer <access token>\""))
    }
    guard let (verifier, generation) = self.keys.current else {
      return .failure(
        GatewayRefusal(code: WireStatusCode.unavailable, message: "the gateway has not loaded identity's signing keys yet; retry shortly")
      )
    }
    let verified: VerifiedAccessToken
    if let cached = self.cache.lookup(token, generation: generation, now: self.clock.now) {
      verified = cached
    } else {
      do {
        verified = try verifier.verify(token)
      } catch {
        if case .unknownKey(let keyID) = error, let keyID { self.keys.unknownKeySeen(keyID) }
        return .failure(GatewayRefusal(code: WireStatusCode.unauthenticated, message: "\(error); sign in again"))
      }
      self.cache.store(verified, for: token, generation: generation)
    }
    if self.revokedSessions.isRevoked(verified.sessionID) {
      return .failure(
        GatewayRefusal(code: WireStatusCode.unauthenticated, message: "the access token's session has ended (signed out); sign in again")
      )
    }
    return .success(verified)
  }

  /// The token of `Bearer <token>` (scheme case-insensitive, spaces and tabs around the token
  /// ignored), or `nil`.
  public static func bearerToken(_ authorization: String) -> String? {
    AuthorizationCredentials.after(scheme: "bearer", in: authorization)
  }
}
