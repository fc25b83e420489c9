import BinarioServiceKit
import BinarioTransport
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import ServiceLifecycle

/// The gateway's HTTP/JSON front door: HTTPS (HTTP/1.1) on its own port, served by Hummingbird,
/// answering with ``HTTPFrontDoorResponder``: every annotated method's resource-style route,
/// `/openapi.json`, the `/docs` page and the web app.
public final class HTTPFrontDoor: Service, Sendable {
  /// How the front door is set up beyond the gateway itself.
  public struct Configuration: Sendable {
    public var host: String
    public var port: Int
    /// PEM files the listener presents (the gateway's own).
    public var certificateChain: String
    public var privateKey: String
    /// Web origins allowed to call from a browser (`*` for any).
    public var corsOrigins: [String]
    /// Swagger UI's distribution, for `/docs`; `nil` serves no page.
    public var documentationFolder: String?
    /// The web app (`clients/web`) served at `/`; `nil` serves none.
    public var webFolder: String?
    /// Where the web app's JavaScript libraries are (Debian's `/usr/share/javascript`).
    public var webLibrariesFolder: String
    /// The tile server the web app's maps draw on; `nil`: its schematic base map.
    public var mapTiles: MapTiles?
    /// The largest request body and message either way.
    public var maximumMessageSize: Int
    /// The deadline of a unary call.
    public var requestTimeout: Duration
    /// The most bytes of request headers, and the most header fields.
    public var maximumHeaderBytes: Int
    public var maximumHeaderFields: Int
    /// How long open requests (a Server-Sent Events stream, say) may run once graceful shutdown
    /// begins; then they are cut off. `nil`: no limit.
    public var shutdownGracePeriod: Duration?
    /// What one client may hold: connections, and how slowly it may send.
    public var limits: FrontDoorLimits

    public init(
      host: String,
      port: Int,
      certificateChain: String,
      privateKey: String,
      corsOrigins: [String] = [],
      documentationFolder: String? = nil,
      webFolder: String? = nil,
      webLibrariesFolder: String = "/usr/share/javascript",
      mapTiles: MapTiles? = nil,
      maximumMessageSize: Int,
      requestTimeout: Duration = .seconds(30),
      maximumHeaderBytes: Int = GatewayCallForwarder.maximumMetadataSize,
      maximumHeaderFields: Int = 100,
      shutdownGracePeriod: Duration? = .seconds(20),
      limits: FrontDoorLimits = .defaults
    ) {
      self.host = host
      self.port = port
      self.certificateChain = certificateChain
      self.privateKey = privateKey
      self.corsOrigins = corsOrigins
      self.documentationFolder = documentationFolder
      self.webFolder = webFolder
      self.webLibrariesFolder = webLibrariesFolder
      self.mapTiles = mapTiles
      self.maximumMessageSize = maximumMessageSize
      self.requestTimeout = requestTimeout
      self.maximumHeaderBytes = maximumHeaderBytes
      self.maximumHeaderFields = maximumHeaderFields
      self.shutdownGracePeriod = shutdownGracePeriod
      self.limits = limits
    }
  }

  private let application: Application<HTTPFrontDoorResponder>
  private let boundPort = OnceValue<Int>()
  private let shutdownGracePeriod: Duration?
  private let openStreams: OpenStreams

  public init(
    configuration: Configuration,
    gateway: Gateway,
    group: MultiThreadedEventLoopGroup = .singleton,
    logger: Logger
  ) throws {
    let openStreams = OpenStreams()
    self.openStreams = openStreams
    let responder = HTTPFrontDoorResponder(
      routes: gateway.httpRoutes,
      forwarder: gateway.acceptor,
      crossOrigin: CrossOriginPolicy(allowedOrigins: Set(configuration.corsOrigins)),
      documentation: try configuration.documentationFolder.map { folder throws(GatewayConfigurationError) in
        try DocumentationPage(folder: folder)
      },
      webApp: try configuration.webFolder.map { folder throws(GatewayConfigurationError) in
        try WebApp(folder: folder, libraries: configuration.webLibrariesFolder, mapTiles: configuration.mapTiles)
      },
      openStreams: openStreams,
      openAPI: ByteBuffer(string: OpenAPIDocument.generatedJSON),
      maximumMessageSize: configuration.maximumMessageSize,
      requestTimeout: configuration.requestTimeout
    )
    var tls = TLSConfiguration.makeServerConfiguration(
      certificateChain: try NIOSSLCertificate.fromPEMFile(configuration.certificateChain).map { .certificate($0) },
      privateKey: .privateKey(try NIOSSLPrivateKey(file: configuration.privateKey, format: .pem))
    )
    tls.minimumTLSVersion = .tlsv12
    tls.applicationProtocols = ["http/1.1"]
    let slowClientTimeout = configuration.limits.slowClientTimeout
    let http1 = HTTP1Channel.Configuration(
      additionalChannelHandlers: [RequestArrivalTimeoutHandler(timeout: slowClientTimeout)],
      // Hummingbird's own idle close, behind the arrival timeout: it never cuts an answer that
      // is streaming (Server-Sent Events).
      idleTimeout: TimeAmount(configuration.limits.idleTimeout),
      httpDecoderConfiguration: .init(
        maxHeaderFieldSize: configuration.maximumHeaderBytes,
        maxHeaderListSize: configuration.maximumHeaderBytes,
        maxHeaderFieldCount: configuration.maximumHeaderFields
      )
    )
    let boundPort = self.boundPort
    let connectionLimiter = ConnectionLimiter(limits: configuration.limits.connections)
    self.shutdownGracePeriod = configuration.shutdownGracePeriod
    self.application = Application(
      responder: responder,
      server: try .tls(.http1(configuration: http1), tlsConfiguration: tls),
      configuration: ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port),
        serverName: nil
      ),
      onServerRunning: { channel in
        // Before the acceptor, to see each accepted connection first.
        try? await channel.pipeline.addHandler(connectionLimiter.handler(), position: .first).get()
        let port = channel.localAddress?.port ?? 0
        boundPort.resolve(.success(port))
        logger.notice("listening", metadata: ["listener": "http", "address": "\(configuration.host):\(port)"])
      },
      eventLoopGroupProvider: .shared(group),
      logger: logger
    )
  }

  /// The port the front door is bound to, once it is.
  public func listeningPort() async throws -> Int {
    try await self.boundPort.value
  }

  /// Serves until graceful shutdown; then ends every Server-Sent Events stream (its client
  /// told to reconnect), lets unary calls finish for the grace period, and cuts off what is
  /// still open (Hummingbird alone would wait for every connection to end).
  public func run() async throws {
    let (application, openStreams, grace) = (self.application, self.openStreams, self.shutdownGracePeriod)
    // Each task says whether the front door is done when it returns.
    try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        try await application.run()
        return true
      }
      group.addTask {
        try await gracefulShutdown()
        openStreams.endAll()
        guard let grace else { return false }
        try await Task.sleep(for: grace)
        return true
      }
      while let done = try await group.next(), !done {}
      group.cancelAll()
    }
  }
}
