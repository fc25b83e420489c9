import Foundation
import GRPCCore
import Logging
import Prometheus
import ServiceLifecycle

/// The bootstrap every service executable's `main` calls.
///
/// ```swift
/// @main struct Identity: AsyncParsableCommand {
///   @OptionGroup var options: ServiceOptions
///   func run() async throws {
///     try await ServiceRunner.run(options: options, serviceName: "identity", transport: .binario) { context in
///       [IdentityService(store: try Store(directory: context.configuration.dataDirectory))]
///     }
///   }
/// }
/// ```
public enum ServiceRunner {
  /// Loads the configuration (flags > environment > file > defaults), bootstraps logging and
  /// metrics for the process, runs the gRPC server (with the health service, the logging and
  /// metrics interceptors) and the `/metrics` endpoint until SIGTERM or SIGINT, then shuts down
  /// gracefully. Returns once everything has stopped.
  ///
  /// - Parameter services: Makes the service's RPC services; the health service is added to them.
  /// - Throws: ``ConfigurationError`` for a bad setting, or what stopped the server.
  public static func run<Transport: ServerTransport>(
    options: ServiceOptions,
    serviceName: String,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: ServerTransportFactory<Transport>,
    services: (ServiceRunnerContext) async throws -> [any RegistrableRPCService]
  ) async throws {
    let configuration = try ServiceConfiguration.load(
      serviceName: serviceName,
      options: options,
      environment: environment
    )
    ServiceLogging.bootstrap(level: configuration.logLevel, format: configuration.logFormat)
    let registry = PrometheusCollectorRegistry()
    ServiceMetrics.bootstrap(registry: registry)
    let logger = Logger(label: configuration.serviceName)
    do {
      let assembled = try await Self.assemble(
        configuration: configuration,
        logger: logger,
        metricsRegistry: registry,
        transport: transport,
        services: services
      )
      try await assembled.run()
      logger.info("stopped")
    } catch {
      logger.critical("stopped with an error", metadata: ["error": "\(error)"])
      throw error
    }
  }

  /// ``run(options:serviceName:environment:transport:services:)`` with a bare transport maker
  /// (the listening address is then not logged).
  public static func run<Transport: ServerTransport>(
    options: ServiceOptions,
    serviceName: String,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    makeTransport: @escaping @Sendable (ServiceConfiguration) throws -> Transport,
    services: (ServiceRunnerContext) async throws -> [any RegistrableRPCService]
  ) async throws {
    try await Self.run(
      options: options,
      serviceName: serviceName,
      environment: environment,
      transport: ServerTransportFactory(makeTransport: { configuration, _ in try makeTransport(configuration) }),
      services: services
    )
  }

  /// Builds everything ``run(options:serviceName:environment:transport:services:)`` runs, without
  /// touching process-wide state (logging, metrics bootstrap): for tests, and for mains that
  /// bootstrap themselves. With `handlesSignals`, SIGTERM and SIGINT begin graceful shutdown.
  ///
  /// The group holds, in start order, the `/metrics` endpoint (if ``ServiceConfiguration/metricsPort``
  /// is set), the services added with ``ServiceRunnerContext/addService(_:name:)``, and the gRPC
  /// server; graceful shutdown runs in reverse order, so the server drains first.
  public static func assemble<Transport: ServerTransport>(
    configuration: ServiceConfiguration,
    logger: Logger,
    metricsRegistry: PrometheusCollectorRegistry,
    transport: ServerTransportFactory<Transport>,
    handlesSignals: Bool = true,
    services: (ServiceRunnerContext) async throws -> [any RegistrableRPCService]
  ) async throws -> AssembledService {
    logger.info(
      "starting",
      metadata: [
        "host": "\(configuration.host)",
        "port": "\(configuration.port)",
        "client-authentication": "\(configuration.tlsClientAuthentication.rawValue)",
        "data-directory": "\(configuration.dataDirectory)",
        "metrics": "\(configuration.metricsPort.map { "\(configuration.metricsHost):\($0)" } ?? "off")",
      ]
    )
    let health = HealthStatusProvider()
    let context = ServiceRunnerContext(
      configuration: configuration,
      logger: logger,
      health: health,
      metricsRegistry: metricsRegistry
    )
    let rpcServices = try await services(context) + [HealthService(provider: health)]
    let serverTransport = try transport.makeTransport(configuration, logger)

    var router = RPCRouter<Transport>()
    for service in rpcServices {
      service.registerMethods(with: &router)
    }
    let interceptors: [any ServerInterceptor] = [
      LoggingServerInterceptor(logger: logger),
      MetricsServerInterceptor(registry: metricsRegistry),
    ]
    router.registerInterceptors(pipeline: interceptors.map { .apply($0, to: .all) })

    health.setStatus(.serving, forService: "")
    for name in Set(router.methods.map(\.service.fullyQualifiedService)) {
      health.setStatus(.serving, forService: name)
    }

    let listeningAddress = transport.listeningAddress.map { report in
      { @Sendable in try await report(serverTransport) }
    }
    let serverService = GRPCServerService(
      server: GRPCServer(transport: serverTransport, router: router),
      gracePeriod: configuration.shutdownGracePeriodDuration,
      health: health,
      logger: logger,
      listeningAddress: listeningAddress
    )

    var members: [ServiceGroupConfiguration.ServiceConfiguration] = []
    var metricsServer: MetricsHTTPServer?
    if let metricsPort = configuration.metricsPort {
      let server = MetricsHTTPServer(
        host: configuration.metricsHost,
        port: metricsPort,
        registry: metricsRegistry,
        logger: logger
      )
      metricsServer = server
      members.append(
        .init(
          service: server,
          successTerminationBehavior: .gracefullyShutdownGroup,
          failureTerminationBehavior: .cancelGroup,
          serviceName: "metrics-http"
        )
      )
    }
    members += context.addedServices
    members.append(
      .init(
        service: serverService,
        successTerminationBehavior: .gracefullyShutdownGroup,
        failureTerminationBehavior: .cancelGroup,
        serviceName: "grpc-server"
      )
    )

    var groupConfiguration = ServiceGroupConfiguration(
      services: members,
      gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [],
      cancellationSignals: [],
      logger: logger
    )
    // A backstop: the server cancels its own calls at the grace period; this catches services
    // added by the service that ignore shutdown.
    groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriodDuration + .seconds(10)

    return AssembledService(
      serviceGroup: ServiceGroup(configuration: groupConfiguration),
      health: health,
      metricsServer: metricsServer,
      reportListeningAddress: listeningAddress
    )
  }
}
