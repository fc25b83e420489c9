import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioTransport
import Logging
import NIOCore
import Tracing

/// The gateway's call acceptor: for each call a client opens, on the event loop, it picks the
/// upstream that owns the method's proto package, checks the caller's access and rate limit,
/// rewrites the caller metadata, and relays the call (``ForwardedCall``), or answers it itself:
/// health, unknown routes, refusals.
public final class GatewayCallForwarder: BinarioCallAcceptor {
  /// The most metadata (keys and values, in bytes) a client may send. Much more could push the
  /// forwarded `Open` frame over the upstream's frame limit, and a frame over the limit closes the
  /// whole upstream connection, other clients' calls included.
  public static let maximumMetadataSize = 64 * 1024

  /// gRPC's retry hint: milliseconds until the client may try again.
  public static let retryPushbackKey = "grpc-retry-pushback-ms"

  /// The method after which the caller's session is revoked at the gateway at once.
  static let logoutMethod = "/" + Binario_Identity_V1_Identity.Method.Logout.descriptor.fullyQualifiedMethod

  /// The streaming methods (`/package.Service/Method`): the calls that stay open, which end when
  /// their session is revoked. A unary call is left to finish: a `Logout` or `DeleteMe` revokes
  /// its own session, and its caller must still hear that it succeeded.
  public static let streamingMethods: Set<String> = {
    var methods: Set<String> = []
    for file in (try? ProtoDescriptors.files()) ?? [] {
      for service in file.service {
        for method in service.method where method.serverStreaming || method.clientStreaming {
          methods.insert("/\(file.package).\(service.name)/\(method.name)")
        }
      }
    }
    return methods
  }()

  private let routing: RoutingTable
  private let upstreams: [String: UpstreamConnections]
  private let authorizer: any CallAuthorizer
  private let rateLimiter: RateLimiter?
  private let revokedSessions: RevokedSessions
  private let health: GatewayHealth
  private let metrics: GatewayMetrics?
  private let logger: Logger
  private let tracer: any Tracer

  init(
    routing: RoutingTable,
    upstreams: [String: UpstreamConnections],
    authorizer: any CallAuthorizer,
    rateLimiter: RateLimiter?,
    revokedSessions: RevokedSessions,
    health: GatewayHealth,
    metrics: GatewayMetrics?,
    logger: Logger,
    tracer: any Tracer = InstrumentationSystem.tracer
  ) {
    self.routing = routing
    self.upstreams = upstreams
    self.authorizer = authorizer
    self.rateLimiter = rateLimiter
    self.revokedSessions = revokedSessions
    self.health = health
    self.metrics = metrics
    self.logger = logger
    self.tracer = tracer
  }

  public func acceptCall(_ call: BinarioServerCall) {
    self.accept(call)
  }

  /// Takes a call from any front door. Runs on the call's event loop.
  public func accept(_ call: any GatewayClientCall) {
    let metadata = call.metadata
    let requestID = GatewayRequestID.take(
      clientValue: metadata.firstText(GatewayRequestID.key) ?? metadata.firstText(GatewayRequestID.serviceKitKey)
    )
    let span = GatewaySpan.start(for: call, tracer: self.tracer)
    let language = metadata.firstText(Language.metadataKey).flatMap(Language.init(acceptLanguage:)) ?? .fallback

    // Before anything else, health included: whatever a call is for, this much is refused.
    let metadataSize = metadata.reduce(0) { $0 + $1.key.utf8.count + $1.valueSize }
    guard metadataSize <= Self.maximumMetadataSize else {
      self.refuse(
        call,
        GatewayRefusal(
          code: WireStatusCode.resourceExhausted,
          message: "the call's metadata is \(metadataSize) bytes; the gateway takes at most \(Self.maximumMetadataSize)"
        ),
        log: self.log(call, requestID, upstream: "gateway", span: span),
        language: language
      )
      return
    }

    if GatewayHealth.handles(call.method) {
      self.health.accept(call, log: self.log(call, requestID, upstream: "gateway", span: span))
      return
    }

    guard let upstreamName = self.routing.upstream(forMethod: call.method),
      let upstream = self.upstreams[upstreamName]
    else {
      self.refuse(
        call,
        GatewayRefusal(code: WireStatusCode.unimplemented, message: "no service behind this gateway serves \(call.method)"),
        log: self.log(call, requestID, upstream: "gateway", span: span),
        language: language
      )
      return
    }
    let log = self.log(call, requestID, upstream: upstreamName, span: span)

    let decision = self.authorizer.authorize(method: call.method, authorization: metadata.firstText("authorization"))
    let clientIP = ClientAddress.ip(fromPeerDescription: call.peer.remoteAddress)
    var caller: VerifiedAccessToken?
    var deviceToken: String?
    switch decision {
    case .allow(let allowed): caller = allowed
    case .allowDevice(let token): deviceToken = token
    case .deny: break
    }

    let rateKey = caller.map { "user:\($0.userID)" } ?? deviceToken.map { "device:\($0)" } ?? "ip:\(clientIP)"
    if let rateLimiter = self.rateLimiter, let wait = rateLimiter.take(rateKey) {
      self.refuse(
        call,
        GatewayRefusal(
          code: WireStatusCode.resourceExhausted,
          message: "rate limit exceeded (\(rateLimiter.limit.ratePerSecond) calls per second per client); slow down and retry",
          retryAfter: wait
        ),
        log: log,
        language: language
      )
      return
    }
    if case .deny(let refusal) = decision {
      self.refuse(call, refusal, log: log, language: language)
      return
    }

    var onOK: (@Sendable () -> Void)?
    if call.method == Self.logoutMethod, let caller {
      let revoked = self.revokedSessions
      onOK = { revoked.revoke(CollectionOfOne(caller.sessionID), until: caller.expiresAt) }
    }
    var forwarded = ForwardedMetadata.make(
      from: metadata,
      requestID: requestID,
      caller: caller,
      deviceToken: deviceToken,
      clientIP: clientIP
    )
    self.tracer.inject(span.context, into: &forwarded, using: WireMetadataInjector())
    ForwardedCall.start(
      call,
      upstream: upstream,
      metadata: forwarded,
      log: log,
      onOK: onOK,
      session: Self.streamingMethods.contains(call.method) ? caller.map { ($0.sessionID, self.revokedSessions) } : nil
    )
  }

  private func log(_ call: any GatewayClientCall, _ requestID: String, upstream: String, span: any Span) -> CallLog {
    CallLog(
      logger: self.logger,
      metrics: self.metrics,
      door: call.door,
      requestID: requestID,
      method: call.method,
      upstream: upstream,
      span: span
    )
  }

  /// Ends `call` with `refusal`: its English words as the status message, and the same words in
  /// the call's language as a `google.rpc.LocalizedMessage` detail, as the services answer.
  private func refuse(_ call: any GatewayClientCall, _ refusal: GatewayRefusal, log: CallLog, language: Language) {
    var trailers: WireMetadata = [.text(GatewayRequestID.key, log.requestID), refusal.statusDetails(in: language)]
    if let wait = refusal.retryAfter {
      let (seconds, attoseconds) = wait.components
      let milliseconds = max(1, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
      trailers.append(.text(Self.retryPushbackKey, "\(milliseconds)"))
    }
    call.end(WireEnd(code: refusal.code, message: refusal.message.description, trailers: trailers))
    log.ended(code: refusal.code, message: refusal.message.description)
  }
}

extension WireMetadataEntry {
  /// The size of the value in bytes.
  fileprivate var valueSize: Int {
    switch self.value {
    case .text(let text)?: return text.utf8.count
    case .binary(let data)?: return data.count
    case nil: return 0
    }
  }
}
