import Foundation
import GRPCCore
import Logging
import Prometheus
import ServiceLifecycle

/// The bootstrap every service executable's `main` calls, from an ``EventLoopCommand`` (so the
/// process's tasks run on NIO's event loops, see ``EventLoopConcurrency``).
///
/// ```swift
/// @main struct Identity: EventLoopCommand {
///   @OptionGroup var options: ServiceOptions
///   func runOnEventLoops() async throws {
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
    additionalSettings: [AdditionalSetting] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    transport: ServerTransportFactory<Transport>,
    services: (ServiceRunnerContext) async throws -> [any RegistrableRPCService]
  ) async throws {
    let (configuration, additional) = try ServiceConfiguration.load(
      defaults: .defaults(serviceName: serviceName),
      options: options,
      additionalSettings: additionalSettings,
      environment: environment
    )
    try await Self.runProcess(configuration: configuration, environment: environment) { logger, registry in
      try await Self.assemble(
        configuration: configuration,
        additionalSettings: additional,
        logger: logger,
        metricsRegistry: registry,
        transport: transport,
        services: services
      ).run()
    }
  }

  /// What every process does around its services: bootstraps logging, metrics and tracing for
  /// the process, runs `body` (beside the span exporter, when traces are exported), and logs how
  /// it stopped.
  static func runProcess(
    configuration: ServiceConfiguration,
    environment: [String: String],
    _ body: (Logger, PrometheusCollectorRegistry) async throws -> Void
  ) async throws {
    ServiceLogging.bootstrap(level: configuration.logLevel, format: configuration.logFormat)
    let registry = PrometheusCollectorRegistry()
    ServiceMetrics.bootstrap(registry: registry)
    let logger = Logger(label: configuration.serviceName)
    // Lines the loops hold for a shared write must not die with the process.
    do {
      let exporter = try ServiceTracing.bootstrap(configuration: configuration, environment: environment, logger: logger)
      try await Self.running(exporter, logger: logger) { try await body(logger, registry) }
      logger.info("stopped")
      await FileDescriptorLogWriter.standardError.flushAll()
    } catch {
      logger.critical("stopped with an error", metadata: ["error": "\(error)"])
      await FileDescriptorLogWriter.standardError.flushAll()
      throw error
    }
  }

  /// Runs `body` with `exporter` running beside it; once `body` is over (every server has
  /// drained), shuts the exporter down gracefully so it sends the spans it still holds.
  static func running(
    _ exporter: (any Service)?,
    logger: Logger,
    _ body: () async throws -> Void
  ) async throws {
    guard let exporter else { return try await body() }
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: [.init(service: exporter, serviceName: "otlp-span-exporter")],
        gracefulShutdownSignals: [],
        cancellationSignals: [],
        logger: logger
      )
    )
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      do {
        try await body()
      } catch {
        // The exporter still sends what it holds (the spans of what failed) before the error
        // ends the process: throwing from here at once would cancel it mid-send.
        await group.triggerGracefulShutdown()
        try? await tasks.waitForAll()
        throw error
      }
      await group.triggerGracefulShutdown()
      try await tasks.waitForAll()
    }
  }

  static func logStarting(_ configuration: ServiceConfiguration, logger: Logger) {
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
  }

  /// The `/metrics`, `/livez` and `/readyz` endpoint as a member of the service group, if a
  /// metrics port is set.
  static func metricsEndpoint(
    _ configuration: ServiceConfiguration,
    registry: PrometheusCollectorRegistry,
    readiness: Readiness,
    logger: Logger
  ) -> (server: MetricsHTTPServer, member: ServiceGroupConfiguration.ServiceConfiguration)? {
    guard let metricsPort = configuration.metricsPort else { return nil }
    let server = MetricsHTTPServer(
      host: configuration.metricsHost,
      port: metricsPort,
      registry: registry,
      readiness: readiness,
      dataDirectory: configuration.dataDirectory,
      logger: logger
    )
    let member = ServiceGroupConfiguration.ServiceConfiguration(
      service: server,
      successTerminationBehavior: .gracefullyShutdownGroup,
      failureTerminationBehavior: .cancelGroup,
      serviceName: "metrics-http"
    )
    return (server, member)
  }

  /// The process's service group: `members` start in order and shut down in reverse, on
  /// SIGTERM/SIGINT when `handlesSignals`.
  static func serviceGroup(
    _ members: [ServiceGroupConfiguration.ServiceConfiguration],
    configuration: ServiceConfiguration,
    handlesSignals: Bool,
    logger: Logger
  ) -> ServiceGroup {
    var groupConfiguration = ServiceGroupConfiguration(
      services: members,
      gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [],
      cancellationSignals: [],
      logger: logger
    )
    // A backstop: servers cancel their own calls at the grace period; this catches services
    // that ignore shutdown.
    groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriodDuration + .seconds(10)
    return ServiceGroup(configuration: groupConfiguration)
  }

  /// ``run(options:serviceName:additionalSettings:environment:transport:services:)`` with a bare transport maker
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

  /// Builds everything ``run(options:serviceName:additionalSettings:environment:transport:services:)`` runs, without
  /// touching process-wide state (logging, metrics bootstrap): for tests, and for mains that
  /// bootstrap themselves. With `handlesSignals`, SIGTERM and SIGINT begin graceful shutdown.
  ///
  /// `/readyz` passes while the server listens, is not draining, and `grpc.health` reports the
  /// whole server (`""`) `SERVING`, and every check the service added to
  /// ``ServiceRunnerContext/readiness`` passes.
  ///
  /// The group holds, in start order, the `/metrics` endpoint (if ``ServiceConfiguration/metricsPort``
  /// is set), the services added with ``ServiceRunnerContext/addService(_:name:)``, and the gRPC
  /// server; graceful shutdown runs in reverse order, so the server drains first.
  public static func assemble<Transport: ServerTransport>(
    configuration: ServiceConfiguration,
    additionalSettings: AdditionalSettingValues = AdditionalSettingValues(),
    logger: Logger,
    metricsRegistry: PrometheusCollectorRegistry,
    transport: ServerTransportFactory<Transport>,
    handlesSignals: Bool = true,
    services: (ServiceRunnerContext) async throws -> [any RegistrableRPCService]
  ) async throws -> AssembledService {
    Self.logStarting(configuration, logger: logger)
    let health = HealthStatusProvider()
    let context = ServiceRunnerContext(
      configuration: configuration,
      logger: logger,
      health: health,
      metricsRegistry: metricsRegistry,
      additionalSettings: additionalSettings
    )
    let rpcServices = try await services(context) + [HealthService(provider: health)]
    let serverTransport = try transport.makeTransport(configuration, logger)

    var router = RPCRouter<Transport>()
    for service in rpcServices {
      service.registerMethods(with: &router)
    }
    router.registerInterceptors(
      pipeline: [
        .apply(
          ServerCallPipeline(
            tracing: TracingServerInterceptor(),
            logging: LoggingServerInterceptor(logger: logger),
            metrics: MetricsServerInterceptor(registry: metricsRegistry),
            authorization: context.accessCheck,
            errors: ErrorStatusServerInterceptor(serviceName: configuration.serviceName, logger: logger)
          ),
          to: .all
        )
      ]
    )

    health.setStatus(.serving, forService: "")
    for name in Set(router.methods.map(\.service.fullyQualifiedService)) {
      health.setStatus(.serving, forService: name)
    }
    let listenerState = ListenerState()
    context.readiness.add("grpc-server", listener: listenerState)
    context.readiness.add("grpc-health") {
      health.status(forService: "") == .serving ? nil : "grpc.health.v1 reports the server NOT_SERVING"
    }

    let listeningAddress = transport.listeningAddress.map { report in
      { @Sendable in try await report(serverTransport) }
    }
    let serverService = GRPCServerService(
      server: GRPCServer(transport: serverTransport, router: router),
      gracePeriod: configuration.shutdownGracePeriodDuration,
      health: health,
      state: listenerState,
      onShutdown: { context.runGracefulShutdownActions() },
      logger: logger,
      listeningAddress: listeningAddress
    )

    let metrics = Self.metricsEndpoint(configuration, registry: metricsRegistry, readiness: context.readiness, logger: logger)
    var members = metrics.map { [$0.member] } ?? []
    members += context.addedServices
    members.append(
      .init(
        service: serverService,
        successTerminationBehavior: .gracefullyShutdownGroup,
        failureTerminationBehavior: .cancelGroup,
        serviceName: "grpc-server"
      )
    )

    return AssembledService(
      serviceGroup: Self.serviceGroup(members, configuration: configuration, handlesSignals: handlesSignals, logger: logger),
      health: health,
      metricsServer: metrics?.server,
      reportListeningAddress: listeningAddress
    )
  }
}
