import BinarioAuth
import BinarioTransport
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The gateway, assembled: the call acceptor a ``BinarioListener`` hands client calls to, the
/// connections to every upstream, the access check with identity's keys and revoked sessions,
/// and the health it reports.
///
/// Bind a listener with ``acceptor`` (server-only TLS) and run ``backgroundServices`` beside it
/// (they fetch identity's keys and follow its revocation feed); on shutdown call
/// ``enterShutdown()`` before the listener's graceful shutdown and ``shutDownUpstreams()`` after
/// it has closed.
public final class Gateway: Sendable {
  /// The proto package whose upstream issues tokens and revocations.
  static let identityPackage = "binario.identity.v1"

  public let configuration: GatewayConfiguration
  /// Hand it to ``BinarioListener/bind(host:port:tls:configuration:group:logger:acceptor:)``.
  public let acceptor: GatewayCallForwarder
  public let revokedSessions: RevokedSessions
  public let signingKeys: SigningKeyStore
  public let upstreams: [String: UpstreamConnections]
  /// Keys and revocations from identity; empty when no upstream serves identity's package.
  public let backgroundServices: [any Service]
  private let health: GatewayHealth

  /// - Parameters:
  ///   - policy: each method's access rule.
  ///   - authorizer: replaces the access check built from `policy` (tests).
  ///   - group: the event loops of the listener; upstream pools are made per loop of it.
  public init(
    configuration: GatewayConfiguration,
    policy: MethodAccessPolicy = .all,
    authorizer: (any CallAuthorizer)? = nil,
    clock: any GatewayClock = SystemGatewayClock(),
    metrics: GatewayMetrics? = nil,
    group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
    logger: Logger
  ) throws {
    self.configuration = configuration
    var upstreams: [String: UpstreamConnections] = [:]
    for (name, address) in configuration.routing.upstreams {
      upstreams[name] = try UpstreamConnections(
        name: name,
        address: address,
        tls: configuration.upstreamTLS,
        connection: configuration.connection,
        pool: configuration.upstreamPool,
        hold: configuration.upstreamHold,
        group: group,
        metrics: metrics,
        logger: logger
      )
    }
    self.upstreams = upstreams
    let revoked = RevokedSessions(clock: clock)
    self.revokedSessions = revoked
    let keys = SigningKeyStore(clock: clock)
    self.signingKeys = keys

    if let name = configuration.routing.upstream(forPackage: Self.identityPackage), let identity = upstreams[name] {
      self.backgroundServices = [
        SigningKeysFetcher(
          identity: identity,
          store: keys,
          loop: group.next(),
          backoff: configuration.identityRetry,
          minimumRefreshInterval: configuration.minimumKeyRefreshInterval,
          logger: logger
        ),
        RevocationFeed(
          identity: identity,
          revokedSessions: revoked,
          clock: clock,
          loop: group.next(),
          backoff: configuration.identityRetry,
          logger: logger
        ),
      ]
    } else {
      logger.warning("no upstream serves \(Self.identityPackage): access tokens cannot be verified; only public methods work")
      self.backgroundServices = []
    }

    self.health = GatewayHealth(
      routing: configuration.routing,
      checker: UpstreamHealthChecker(
        upstreams: upstreams,
        cacheDuration: configuration.healthCacheDuration,
        checkTimeout: configuration.healthCheckTimeout,
        clock: clock
      ),
      watchInterval: configuration.healthWatchInterval
    )
    self.acceptor = GatewayCallForwarder(
      routing: configuration.routing,
      upstreams: upstreams,
      authorizer: authorizer ?? AccessPolicyAuthorizer(policy: policy, keys: keys, revokedSessions: revoked, clock: clock),
      rateLimiter: configuration.rateLimit.map { RateLimiter(limit: $0, clock: clock) },
      revokedSessions: revoked,
      health: self.health,
      metrics: metrics,
      logger: logger
    )
  }

  /// The HTTP/JSON routes of the methods this gateway routes, and of its own health.
  public var httpRoutes: HTTPRouteTable {
    HTTPRouteTable(
      routes: HTTPRouteTable.generated.filter { route in
        MethodPath(route.rpc).map { self.answers(package: $0.package) } ?? false
      }
    )
  }

  /// Server reflection over the services this gateway routes, the gateway's health and
  /// reflection itself.
  func serverReflection() throws -> ServerReflection {
    try ServerReflection(files: ProtoDescriptors.files()) { service in
      guard let dot = service.lastIndex(of: ".") else { return false }
      let package = String(service[..<dot])
      return package == ServerReflection.package || self.answers(package: package)
    }
  }

  /// Whether calls to `package`'s methods reach anything through this gateway: an upstream's,
  /// or the gateway's own health.
  private func answers(package: String) -> Bool {
    package == GatewayHealth.package || self.configuration.routing.upstream(forPackage: package) != nil
  }

  /// Health turns NOT_SERVING and health watches end, so they do not hold the listener's
  /// graceful shutdown open.
  public func enterShutdown() {
    self.health.enterShutdown()
  }

  /// Closes the connections to upstreams (open calls finish first).
  public func shutDownUpstreams() {
    for upstream in self.upstreams.values { upstream.shutDown() }
  }
}
