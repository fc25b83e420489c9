import BinarioAuth
import BinarioDomain
import BinarioTracing
import BinarioTransport
import Crypto
import Foundation
import Tracing

/// What the gateway does with a client's call before forwarding it, driven by a fuzzer
/// (`Fuzz/`, targets `gateway-metadata`, `access-token` and `http-json`): the request id, the
/// trace context, the metadata's size, the access check with a real key, the metadata rewrite,
/// and the HTTP/JSON door's request transcoding. Each entry traps (so the fuzzer reports it) if a
/// promise about the result is broken.
@_spi(Fuzzing)
public struct GatewayInputFuzzing: Sendable {
  /// The key id tokens are signed with here.
  public static let keyID = "fuzz-key"
  private let privateKey: Curve25519.Signing.PrivateKey
  private let authorizer: AccessPolicyAuthorizer
  private let verifier: AccessTokenVerifier
  private let clock: ManualGatewayClock
  private let routes = HTTPRouteTable()

  public init() {
    // A fixed key: the same input always takes the same path.
    let privateKey = try! Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 7, count: 32))
    self.privateKey = privateKey
    self.clock = ManualGatewayClock()
    let keys = SigningKeyStore(clock: self.clock)
    try! keys.install(rawKeys: [Self.keyID: privateKey.publicKey.rawRepresentation])
    self.authorizer = AccessPolicyAuthorizer(
      policy: .all,
      keys: keys,
      revokedSessions: RevokedSessions(clock: self.clock),
      clock: self.clock
    )
    self.verifier = try! AccessTokenVerifier(rawKeys: [Self.keyID: privateKey.publicKey.rawRepresentation], now: { [clock] in clock.now })
  }

  /// A client's `Open`: its method and metadata, as the Binario door and the bridged doors give
  /// them. Checks that the forwarded metadata carries exactly one request id and trace context of
  /// the gateway's, and a caller identity only when the access check verified one.
  public func open(method: String, metadata: WireMetadata, peerDescription: String) {
    let requestID = GatewayRequestID.take(
      clientValue: metadata.firstText(GatewayRequestID.key) ?? metadata.firstText(GatewayRequestID.serviceKitKey)
    )
    precondition(GatewayRequestID.isSane(requestID), "the gateway made an insane request id")
    var parent = ServiceContext.topLevel
    let tracer = PropagatingTracer()
    tracer.extract(metadata, into: &parent, using: WireMetadataExtractor())
    let span = tracer.startSpan(method, context: parent, ofKind: .server)
    defer { span.end() }

    let decision = self.authorizer.authorize(method: method, authorization: metadata.firstText("authorization"))
    var caller: VerifiedAccessToken?
    var deviceToken: String?
    switch decision {
    case .allow(let allowed): caller = allowed
    case .allowDevice(let token): deviceToken = token
    case .deny(let refusal):
      precondition(refusal.code != WireStatusCode.ok && !refusal.message.description.isEmpty, "a refusal without a status or a reason")
      return
    }
    let clientIP = ClientAddress.ip(fromPeerDescription: peerDescription)
    var forwarded = ForwardedMetadata.make(
      from: metadata,
      requestID: requestID,
      caller: caller,
      deviceToken: deviceToken,
      clientIP: clientIP
    )
    tracer.inject(span.context, into: &forwarded, using: WireMetadataInjector())

    func count(_ key: String) -> Int { forwarded.reduce(0) { $0 + ($1.key == key ? 1 : 0) } }
    precondition(count(GatewayRequestID.key) == 1 && count(TraceHeaders.traceParent) == 1, "request id or trace context repeated")
    precondition(count("authorization") == 0, "the client's token went upstream")
    let callerKeys = CallerIdentity.MetadataKey.all.reduce(0) { $0 + count($1) }
    precondition(callerKeys == (caller == nil ? 0 : CallerIdentity.MetadataKey.all.count), "caller identity not the gateway's")
    precondition(count(DeviceCredential.metadataKey) == (deviceToken == nil ? 0 : 1), "device token not the gateway's")
  }

  /// An `authorization` value as a client sends it, checked by the verifier and the access rule
  /// of a signed-in method.
  public func authorization(_ text: String) {
    if let token = AuthorizationCredentials.after(scheme: "Bearer", in: text) {
      _ = try? self.verifier.verify(token)
    }
    _ = self.authorizer.authorize(method: "/binario.identity.v1.Identity/GetMe", authorization: text)
  }

  /// A token with a valid signature over any header and claims: the parsing behind the signature.
  public func signedToken(header: [UInt8], claims: [UInt8]) {
    let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
    guard let signature = try? self.privateKey.signature(for: Data(signingInput.utf8)) else { return }
    let token = signingInput + "." + Base64URL.encode(signature)
    if let verified = try? self.verifier.verify(token) {
      precondition(verified.expiresAt > self.clock.now, "an expired token passed")
    }
    _ = self.authorizer.authorize(method: "/binario.identity.v1.Identity/GetMe", authorization: "Bearer " + token)
  }

  /// An HTTP/JSON request: its verb, path with query, `Last-Event-ID` and body, through the route
  /// table and the route's transcoder; an answer's bytes through the route's response transcoder.
  public func httpRequest(verb: String, target: String, lastEventID: String?, body: [UInt8]) {
    let verb = HTTPRoute.Verb(rawValue: verb) ?? .get
    let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    let query = path.count > 1 ? String(path[1]) : nil
    guard case .route(let route, let pathValues) = self.routes.match(verb: verb, path: path.first ?? "") else { return }
    _ = try? route.requestMessage(pathValues: pathValues, query: query, lastEventID: lastEventID, body: body)
    _ = try? route.transcoder.responseJSON(body)
  }
}
