import ArgumentParser
import BinarioServiceKit
import BinarioTransport
import GatewayService
import Logging

/// `gateway`: the front doors. Listens for clients with server-only TLS (Binario, gRPC over
/// HTTP/2, HTTP/JSON), checks each call's access token and rate limit, and forwards it over
/// mutual TLS to the service that owns the method's proto package.
public struct GatewayCommand: EventLoopCommand {
  public static let configuration = CommandConfiguration(
    commandName: "gateway",
    abstract: "Binario's gateway: routes, checks and forwards client calls to the services.",
    discussion: """
      Every setting can also come from the JSON config file (--config) or a BINARIO_* environment \
      variable; flags win over the environment, which wins over the file.

      Clients connect with TLS (no client certificate) through three front doors: Binario \
      (--port, 7100), gRPC over HTTP/2 (--grpc-port, 7110) and HTTPS with JSON, /openapi.json \
      and /docs (--http-port, 7443). The gateway reaches the services with mutual TLS, \
      presenting --upstream-tls-certificate (default: --tls-certificate), which must carry the \
      URI SAN spiffe://binario/gateway. Client authentication defaults to none here.

      Example, with development certificates from `swift run binario-dev-certs --out .dev/certs`:

      gateway --port 7100 --tls-certificate .dev/certs/gateway.pem \
      --tls-private-key .dev/certs/gateway.key --tls-trusted-ca .dev/certs/ca.pem \
      --upstream identity=127.0.0.1:7101
      """
  )

  @OptionGroup var options: ServiceOptions
  @OptionGroup var gatewayOptions: GatewayOptions

  public init() {}

  public func runOnEventLoops() async throws {
    var defaults = ServiceConfiguration.defaults(serviceName: "gateway")
    defaults.port = GatewaySettings.defaultPort
    defaults.tlsClientAuthentication = .none
    try await ServiceRunner.runServices(
      options: self.options,
      defaults: defaults,
      additionalSettings: self.gatewayOptions.additionalSettings
    ) { context in
      let settings = try GatewaySettings(from: context.configuration, additional: context.additionalSettings)
      let gateway = try Gateway(
        configuration: settings.gateway,
        metrics: GatewayMetrics(registry: context.metricsRegistry),
        logger: context.logger
      )
      context.logger.info(
        "routing",
        metadata: [
          "upstreams": "\(settings.gateway.routing.upstreamNames.map { "\($0)=\(settings.gateway.routing.upstreams[$0]!)" })",
          "rate-limit": "\(settings.gateway.rateLimit.map(\.description) ?? "off")",
          "grpc-port": "\(settings.grpcPort.map(String.init) ?? "off")",
          "http-port": "\(settings.httpPort.map(String.init) ?? "off")",
          "connection-limit": "\(settings.frontDoorLimits.connections.perClient)/\(settings.frontDoorLimits.connections.total)",
        ]
      )
      for (index, service) in gateway.backgroundServices.enumerated() {
        context.addService(service, name: "gateway-identity-\(index)")
      }
      if !gateway.backgroundServices.isEmpty {
        // Ready once it can check a token: the suite's processes start at once, and until
        // identity answers every signed-in call would be refused.
        context.readiness.add("identity-signing-keys") {
          gateway.signingKeys.verifier == nil ? "identity's signing keys are not loaded yet" : nil
        }
      }
      let limits = settings.frontDoorLimits
      let listener = try FrameListenerService(
        configuration: context.configuration,
        connection: limits.binarioConnection(context.configuration.connection),
        connectionLimiter: ConnectionLimiter(limits: limits.connections),
        acceptor: gateway.acceptor,
        logger: context.logger,
        onShutdown: { gateway.enterShutdown() },
        afterClose: { gateway.shutDownUpstreams() }
      )
      if let port = settings.grpcPort {
        let grpc = try GRPCFrontDoor(
          host: context.configuration.host,
          port: port,
          certificateChain: try Self.required(context.configuration.tlsCertificate, "--tls-certificate"),
          privateKey: try Self.required(context.configuration.tlsPrivateKey, "--tls-private-key"),
          maximumMessageSize: context.configuration.maxFrameSize,
          limits: limits,
          gateway: gateway,
          logger: context.logger
        )
        context.addService(grpc, name: "gateway-grpc-front-door")
      }
      if let port = settings.httpPort {
        let http = try HTTPFrontDoor(
          configuration: HTTPFrontDoor.Configuration(
            host: context.configuration.host,
            port: port,
            certificateChain: try Self.required(context.configuration.tlsCertificate, "--tls-certificate"),
            privateKey: try Self.required(context.configuration.tlsPrivateKey, "--tls-private-key"),
            corsOrigins: settings.corsOrigins,
            documentationFolder: settings.docsFolder,
            webFolder: settings.webFolder,
            webLibrariesFolder: settings.webLibraries,
            mapTiles: settings.mapTiles,
            maximumMessageSize: context.configuration.maxFrameSize,
            shutdownGracePeriod: context.configuration.shutdownGracePeriodDuration,
            limits: limits
          ),
          gateway: gateway,
          logger: context.logger
        )
        context.addService(http, name: "gateway-http-front-door")
      }
      // `/readyz` follows the listener only, not the upstreams: were an upstream down to take
      // every gateway replica out of its load balancer, calls to the other upstreams would fail too.
      context.addServer(listener, name: "gateway-listener")
    }
  }

  /// The front doors present the gateway's own certificate, which the Binario listener needs too.
  private static func required(_ path: String?, _ flag: String) throws -> String {
    guard let path else {
      throw ConfigurationError(setting: flag, source: .defaults, reason: "the gateway's front doors need \(flag)")
    }
    return path
  }
}
