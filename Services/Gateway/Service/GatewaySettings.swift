import BinarioServiceKit
import BinarioTransport

/// The gateway's settings, checked: ServiceKit's common ones plus its own (the `gateway`
/// command's `GatewayOptions`: upstreams, routes, rate limit, front doors).
public struct GatewaySettings: Sendable {
  public enum Key {
    public static let upstream = "upstream"
    public static let route = "route"
    public static let rateLimit = "rateLimit"
    public static let grpcPort = "grpcPort"
    public static let httpPort = "httpPort"
    public static let corsOrigin = "corsOrigin"
    public static let docsFolder = "docsFolder"
    public static let webFolder = "webFolder"
    public static let webLibraries = "webLibraries"
    public static let mapTiles = "mapTiles"
    public static let mapAttribution = "mapAttribution"
    public static let upstreamTLSCertificate = "upstreamTLSCertificate"
    public static let upstreamTLSPrivateKey = "upstreamTLSPrivateKey"
    public static let connectionLimit = "connectionLimit"
    public static let slowClientTimeout = "slowClientTimeout"
    public static let callsPerConnection = "callsPerConnection"
    public static let idleTimeout = "idleTimeout"
    public static let upstreamHold = "upstreamHold"
  }

  public static let defaultPort = 7100
  public static let defaultGRPCPort = 7110
  public static let defaultHTTPPort = 7443

  public var gateway: GatewayConfiguration
  /// The gRPC front door's port; `nil` when it is off.
  public var grpcPort: Int?
  /// The HTTP/JSON front door's port; `nil` when it is off.
  public var httpPort: Int?
  public var corsOrigins: [String]
  public var docsFolder: String?
  /// The web app's folder (`clients/web`), served at `/`; `nil`: no app.
  public var webFolder: String?
  /// Where Debian's JavaScript libraries are, for the web app.
  public var webLibraries: String
  /// The tile server the web app's maps draw on; `nil`: the schematic base map it ships.
  public var mapTiles: MapTiles?
  /// What one client may hold on each front door.
  public var frontDoorLimits: FrontDoorLimits

  public init(from configuration: ServiceConfiguration, additional: AdditionalSettingValues) throws {
    let upstreams = try additional.parsed(Key.upstream) { text -> (String, UpstreamAddress) in
      let (name, value) = try Self.pair(text, "name=host:port (e.g. identity=127.0.0.1:7101)")
      return (name, try UpstreamAddress(parsing: value))
    }
    guard !upstreams.isEmpty else {
      throw ConfigurationError(
        setting: Key.upstream,
        source: .defaults,
        reason: "the gateway needs at least one upstream; add --upstream identity=127.0.0.1:7101"
      )
    }
    let routes = try additional.parsed(Key.route) { text in
      try Self.pair(text, "package=upstream (e.g. binario.geo_offers.v1=geo-offers)")
    }
    let routing: RoutingTable
    do {
      routing = try RoutingTable(
        upstreams: Dictionary(upstreams, uniquingKeysWith: { _, last in last }),
        routes: Dictionary(routes, uniquingKeysWith: { _, last in last })
      )
    } catch {
      throw ConfigurationError(setting: Key.route, source: .defaults, reason: error.message)
    }

    var rateLimit: RateLimit? = .default
    if let text = try additional.value(Key.rateLimit) {
      rateLimit = text.lowercased() == "off" ? nil : try additional.parsed(Key.rateLimit) { try RateLimit(parsing: $0) }.first
    }
    self.grpcPort = try Self.port(Key.grpcPort, default: Self.defaultGRPCPort, in: additional)
    self.httpPort = try Self.port(Key.httpPort, default: Self.defaultHTTPPort, in: additional)
    self.corsOrigins = try additional.parsed(Key.corsOrigin) { text throws(GatewayConfigurationError) -> String in
      guard text == "*" || text.hasPrefix("https://") || text.hasPrefix("http://"), !text.hasSuffix("/") else {
        throw GatewayConfigurationError("\"\(text)\" is not a web origin: write scheme://host[:port] without a path (e.g. https://app.example.com)")
      }
      return text
    }
    self.docsFolder = try additional.value(Key.docsFolder)
    self.webFolder = try additional.value(Key.webFolder)
    self.webLibraries = try additional.value(Key.webLibraries) ?? "/usr/share/javascript"
    let attribution = try additional.value(Key.mapAttribution)
    self.mapTiles = try additional.parsed(Key.mapTiles) { text throws(GatewayConfigurationError) in
      try MapTiles(template: text, attribution: attribution ?? "")
    }.first

    self.frontDoorLimits = .defaults
    if let limits = try additional.parsed(Key.connectionLimit, Self.connectionLimits).first {
      self.frontDoorLimits.connections = limits
    }
    if let timeout = try additional.parsed(Key.slowClientTimeout, Self.seconds).first {
      self.frontDoorLimits.slowClientTimeout = timeout
    }
    if let timeout = try additional.parsed(Key.idleTimeout, Self.seconds).first {
      self.frontDoorLimits.idleTimeout = timeout
    }
    if let calls = try additional.parsed(
      Key.callsPerConnection,
      { text throws(GatewayConfigurationError) -> Int in
        guard let calls = Int(text), calls > 0 else {
          throw GatewayConfigurationError("\"\(text)\" is not a number of calls above 0")
        }
        return calls
      }
    ).first {
      self.frontDoorLimits.callsPerConnection = calls
    }

    let purpose = "mutual TLS to the upstreams"
    guard let certificate = try additional.value(Key.upstreamTLSCertificate) ?? configuration.tlsCertificate else {
      throw ConfigurationError(
        setting: Key.upstreamTLSCertificate,
        source: .defaults,
        reason: "\(purpose) needs a certificate; set --tls-certificate or --upstream-tls-certificate"
      )
    }
    guard let privateKey = try additional.value(Key.upstreamTLSPrivateKey) ?? configuration.tlsPrivateKey else {
      throw ConfigurationError(
        setting: Key.upstreamTLSPrivateKey,
        source: .defaults,
        reason: "\(purpose) needs a private key; set --tls-private-key or --upstream-tls-private-key"
      )
    }
    guard let trustedCA = configuration.tlsTrustedCA else {
      throw ConfigurationError(
        setting: ConfigurationSetting.tlsTrustedCA.key,
        source: .defaults,
        reason: "\(purpose) needs the deployment CA; set --tls-trusted-ca"
      )
    }
    var hold: UpstreamHold? = .defaults
    if let text = try additional.value(Key.upstreamHold) {
      hold = text.lowercased() == "off" ? nil : try additional.parsed(Key.upstreamHold, Self.upstreamHold).first
    }
    self.gateway = GatewayConfiguration(
      routing: routing,
      upstreamTLS: .mutual(certificateChain: .file(certificate), privateKey: .file(privateKey), trustRoots: .file(trustedCA)),
      rateLimit: rateLimit,
      connection: configuration.connection,
      upstreamHold: hold
    )
  }

  /// `seconds[/calls]`, e.g. `10/1000`.
  private static func upstreamHold(_ text: String) throws(GatewayConfigurationError) -> UpstreamHold {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    let expected = "seconds[/calls] a call may wait for its upstream and how many may wait per upstream (e.g. 10/1000), or off"
    guard (1 ... 2).contains(parts.count), let seconds = Double(parts[0]), seconds > 0, seconds <= 300 else {
      throw GatewayConfigurationError("\"\(text)\" is not \(expected); the seconds are above 0 and at most 300")
    }
    var hold = UpstreamHold.defaults
    hold.maximumWait = .milliseconds(Int64(seconds * 1000))
    if parts.count == 2 {
      guard let calls = Int(parts[1]), calls > 0 else {
        throw GatewayConfigurationError("\"\(text)\" is not \(expected); the calls are a number above 0")
      }
      hold.maximumCalls = calls
    }
    return hold
  }

  /// A front door's port: `off` for none, else 0...65535.
  private static func port(_ key: String, default defaultPort: Int, in additional: AdditionalSettingValues) throws -> Int? {
    guard let text = try additional.value(key) else { return defaultPort }
    if text.lowercased() == "off" { return nil }
    return try additional.parsed(key) { text throws(GatewayConfigurationError) -> Int in
      guard let port = Int(text), (0 ... 65535).contains(port) else {
        throw GatewayConfigurationError("\"\(text)\" is not a port: write 0...65535, or off")
      }
      return port
    }.first
  }

  /// A duration in seconds, above 0 and at most an hour: `30`, `0.5`.
  private static func seconds(_ text: String) throws(GatewayConfigurationError) -> Duration {
    guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
      throw GatewayConfigurationError("\"\(text)\" is not a number of seconds above 0 and at most 3600 (e.g. 30 or 0.5)")
    }
    return .milliseconds(Int64(seconds * 1000))
  }

  /// `per-client[/total]`, e.g. `256/16384`.
  private static func connectionLimits(_ text: String) throws(GatewayConfigurationError) -> ConnectionLimiter.Limits {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard (1 ... 2).contains(parts.count), let perClient = Int(parts[0]), perClient > 0 else {
      throw GatewayConfigurationError("\"\(text)\" is not per-client[/total] connections (e.g. 256/16384)")
    }
    let total = parts.count == 2 ? Int(parts[1]) : max(perClient, ConnectionLimiter.Limits.defaults.total)
    guard let total, total >= perClient else {
      throw GatewayConfigurationError("\"\(text)\": the total must be a number at least the per-client limit")
    }
    return ConnectionLimiter.Limits(perClient: perClient, total: total)
  }

  private static func pair(_ text: String, _ expected: String) throws(GatewayConfigurationError) -> (String, String) {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
      throw GatewayConfigurationError("\"\(text)\" is not \(expected)")
    }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
  }
}
