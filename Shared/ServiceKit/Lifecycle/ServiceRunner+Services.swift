import Foundation
import Logging
import Prometheus
import ServiceLifecycle

extension ServiceRunner {
  /// The bootstrap of a process whose server is not a GRPCCore server (the gateway serves on the
  /// frame layer with a ``FrameListenerService``): loads the configuration (flags > environment >
  /// file > `defaults`, with the service's ``AdditionalSetting``s), bootstraps logging and
  /// metrics, lets `setup` add the process's services with
  /// ``ServiceRunnerContext/addService(_:name:)`` (its server with
  /// ``ServiceRunnerContext/addServer(_:name:)``, which `/readyz` follows), and runs them with the
  /// `/metrics` endpoint
  /// until SIGTERM or SIGINT, then shuts down gracefully (in reverse order: add the server last
  /// so it drains first). Returns once everything has stopped.
  ///
  /// - Throws: ``ConfigurationError`` for a bad setting, or what stopped a service.
  public static func runServices(
    options: ServiceOptions,
    defaults: ServiceConfiguration,
    additionalSettings: [AdditionalSetting] = [],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    setup: (ServiceRunnerContext) async throws -> Void
  ) async throws {
    let (configuration, additional) = try ServiceConfiguration.load(
      defaults: defaults,
      options: options,
      additionalSettings: additionalSettings,
      environment: environment
    )
    try await Self.runProcess(configuration: configuration, environment: environment) { logger, registry in
      try await Self.assembleServices(
        configuration: configuration,
        additionalSettings: additional,
        logger: logger,
        metricsRegistry: registry,
        setup: setup
      ).run()
    }
  }

  /// Builds what ``runServices(options:defaults:additionalSettings:environment:setup:)`` runs,
  /// without touching process-wide state: for tests. With `handlesSignals`, SIGTERM and SIGINT
  /// begin graceful shutdown.
  public static func assembleServices(
    configuration: ServiceConfiguration,
    additionalSettings: AdditionalSettingValues = AdditionalSettingValues(),
    logger: Logger,
    metricsRegistry: PrometheusCollectorRegistry,
    handlesSignals: Bool = true,
    setup: (ServiceRunnerContext) async throws -> Void
  ) async throws -> ServiceGroup {
    Self.logStarting(configuration, logger: logger)
    let context = ServiceRunnerContext(
      configuration: configuration,
      logger: logger,
      health: HealthStatusProvider(),
      metricsRegistry: metricsRegistry,
      additionalSettings: additionalSettings
    )
    try await setup(context)

    let metrics = Self.metricsEndpoint(configuration, registry: metricsRegistry, readiness: context.readiness, logger: logger)
    let shutdownActions = ServiceGroupConfiguration.ServiceConfiguration(
      service: GracefulShutdownActions(context: context),
      successTerminationBehavior: .ignore,
      failureTerminationBehavior: .cancelGroup,
      serviceName: "graceful-shutdown-actions"
    )
    let members = (metrics.map { [$0.member] } ?? []) + context.addedServices + [shutdownActions]
    return Self.serviceGroup(members, configuration: configuration, handlesSignals: handlesSignals, logger: logger)
  }
}
