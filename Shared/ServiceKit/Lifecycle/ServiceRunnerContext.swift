import BinarioAuth
import BinarioDomain
import BinarioStorage
import GRPCCore
import Logging
import Prometheus
import ServiceLifecycle
import Synchronization

/// What a service's setup closure gets from ``ServiceRunner``: the configuration, a logger, the
/// health statuses, the metrics registry, and a way to run more lifecycle services.
public final class ServiceRunnerContext: Sendable {
  public let configuration: ServiceConfiguration
  /// The process's root logger (label: the service name).
  public let logger: Logger
  /// The runner marks the server (`""`) and every registered service `SERVING` before it starts
  /// and all `NOT_SERVING` when shutdown begins; change them in between as the service sees fit.
  public let health: HealthStatusProvider
  /// The registry `/metrics` serves.
  public let metricsRegistry: PrometheusCollectorRegistry
  /// The service's own settings, when it declared some (``AdditionalSetting``).
  public let additionalSettings: AdditionalSettingValues
  /// What `/readyz` checks. The runner adds the server's checks; add a service's own here.
  public let readiness = Readiness()

  private let added = Mutex<[ServiceGroupConfiguration.ServiceConfiguration]>([])
  private let authorization = Mutex<AuthorizationServerInterceptor?>(nil)
  private let shutdownActions = Mutex<[@Sendable () -> Void]>([])
  /// The data directory's lock, once ``ownDataDirectory()`` took it: held until the process exits.
  let dataDirectoryLock = Mutex<DataDirectoryLock?>(nil)
  /// What jobs wait on when the process runs on a test clock (``domainClock()``).
  let jobTimer = Mutex<(any JobTimer)?>(nil)

  init(
    configuration: ServiceConfiguration,
    logger: Logger,
    health: HealthStatusProvider,
    metricsRegistry: PrometheusCollectorRegistry,
    additionalSettings: AdditionalSettingValues = AdditionalSettingValues()
  ) {
    self.configuration = configuration
    self.logger = logger
    self.health = health
    self.metricsRegistry = metricsRegistry
    self.additionalSettings = additionalSettings
  }

  /// Runs `service` beside the gRPC server (a ``GRPCClientService`` to call other services, a
  /// background job). It starts before the server and is shut down gracefully after the server
  /// has drained. If it returns early the process shuts down gracefully; if it throws, the
  /// process stops.
  public func addService(_ service: any Service, name: String) {
    let configuration = ServiceGroupConfiguration.ServiceConfiguration(
      service: service,
      successTerminationBehavior: .gracefullyShutdownGroup,
      failureTerminationBehavior: .cancelGroup,
      serviceName: name
    )
    self.added.withLock { $0.append(configuration) }
  }

  /// Runs `listener` as the process's call server (a frame-layer server: the gateway), like
  /// ``addService(_:name:)``, and makes `/readyz` pass only while it listens and is not draining.
  public func addServer(_ listener: FrameListenerService, name: String) {
    self.readiness.add(name, listener: listener.state)
    self.addService(listener, name: name)
  }

  /// Runs `action` when graceful shutdown begins, before the server waits for open calls (a
  /// GRPCCore server as it stops taking calls; a frame-layer server just before its drain): end what would otherwise stay open until the grace period runs out
  /// (a feed's long-lived server streams, say), so the process stops as soon as its calls are done.
  public func onGracefulShutdown(_ action: @escaping @Sendable () -> Void) {
    self.shutdownActions.withLock { $0.append(action) }
  }

  func runGracefulShutdownActions() {
    for action in self.shutdownActions.withLock({ $0 }) { action() }
  }

  /// The service's own access check on every call (``BinarioAuth/AuthorizationServerInterceptor``),
  /// run inside the runner's tracing, logging and metrics, so what it refuses is logged and counted.
  public func checkAccess(with authorization: AuthorizationServerInterceptor) {
    self.authorization.withLock { $0 = authorization }
  }

  var accessCheck: AuthorizationServerInterceptor? {
    self.authorization.withLock { $0 }
  }

  var addedServices: [ServiceGroupConfiguration.ServiceConfiguration] {
    self.added.withLock { $0 }
  }
}
