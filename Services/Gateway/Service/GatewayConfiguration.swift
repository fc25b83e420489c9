import BinarioDomain
import BinarioTransport

/// Everything the gateway needs besides its collaborators: where upstreams are and how to reach
/// them, rate limits, and health-check timings. (Where it listens, and with what certificate,
/// is the listener's business: ServiceKit's configuration.)
public struct GatewayConfiguration: Sendable {
  public var routing: RoutingTable
  /// Mutual TLS to upstreams, with the gateway's certificate (`spiffe://binario/gateway`).
  public var upstreamTLS: BinarioTLSConfiguration
  /// `nil`: no rate limits.
  public var rateLimit: RateLimit?
  public var connection: BinarioConnectionConfiguration
  /// Per event loop, per upstream. The gateway's default tries an upstream it lost at least
  /// every half second (not the pool's five), so a call held for it waits at most that long
  /// once the upstream is back.
  public var upstreamPool: BinarioConnectionPool.Configuration
  /// Calls held while their upstream is unavailable; `nil`: they fail at once.
  public var upstreamHold: UpstreamHold?
  /// How long an upstream's health answer is reused.
  public var healthCacheDuration: Duration
  /// How long the gateway waits for an upstream's health answer before taking it as down.
  public var healthCheckTimeout: Duration
  /// How often an open `Watch` re-checks the upstreams.
  public var healthWatchInterval: Duration
  /// Between attempts to fetch identity's keys or follow its revocation feed.
  public var identityRetry: Backoff
  /// The least time between two key fetches caused by tokens naming unknown keys.
  public var minimumKeyRefreshInterval: Duration

  public init(
    routing: RoutingTable,
    upstreamTLS: BinarioTLSConfiguration,
    rateLimit: RateLimit? = nil,
    connection: BinarioConnectionConfiguration = .defaults,
    upstreamPool: BinarioConnectionPool.Configuration = Self.defaultUpstreamPool,
    upstreamHold: UpstreamHold? = .defaults,
    healthCacheDuration: Duration = .seconds(1),
    healthCheckTimeout: Duration = .seconds(1),
    healthWatchInterval: Duration = .seconds(2),
    identityRetry: Backoff = Backoff(),
    minimumKeyRefreshInterval: Duration = .seconds(10)
  ) {
    self.routing = routing
    self.upstreamTLS = upstreamTLS
    self.rateLimit = rateLimit
    self.connection = connection
    self.upstreamPool = upstreamPool
    self.upstreamHold = upstreamHold
    self.healthCacheDuration = healthCacheDuration
    self.healthCheckTimeout = healthCheckTimeout
    self.healthWatchInterval = healthWatchInterval
    self.identityRetry = identityRetry
    self.minimumKeyRefreshInterval = minimumKeyRefreshInterval
  }

  public static var defaultUpstreamPool: BinarioConnectionPool.Configuration {
    BinarioConnectionPool.Configuration(initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(500))
  }
}
