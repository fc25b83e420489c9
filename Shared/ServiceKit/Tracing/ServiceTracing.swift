import BinarioTracing
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// Installs the process's tracer (swift-distributed-tracing's `InstrumentationSystem`).
///
/// - With an OTLP endpoint (``ServiceConfiguration/otlpEndpoint``, or OpenTelemetry's own
///   `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), swift-otel's tracer:
///   spans are batched and exported over OTLP (HTTP/protobuf unless
///   `OTEL_EXPORTER_OTLP_PROTOCOL` says `http/json` or `grpc`), parent-based sampling: a caller's
///   sampled flag is followed, a new trace is sampled.
/// - Without one (the default), ``PropagatingTracer``: nothing recorded or sent, but every call
///   still continues or starts a W3C trace, and every log line and onward call carries its ids.
///
/// Either way `traceparent`/`tracestate` are the only propagation format.
public enum ServiceTracing {
  /// Where spans go, once the configuration and environment are read.
  public enum Export: Sendable, Hashable {
    case off
    /// OTLP to `endpoint`, the base URL of a collector (`http://collector:4318`).
    case otlp(endpoint: String)
  }

  /// The OTel environment variables that turn export on by themselves.
  static let endpointVariables = ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"]

  public static func export(configuration: ServiceConfiguration, environment: [String: String]) -> Export {
    if let endpoint = configuration.otlpEndpoint { return .otlp(endpoint: endpoint) }
    for variable in Self.endpointVariables {
      if let endpoint = environment[variable], !endpoint.isEmpty { return .otlp(endpoint: endpoint) }
    }
    return .off
  }

  /// Bootstraps `InstrumentationSystem` (once per process) and returns the exporter to run
  /// beside the process's services (it sends what is left when shut down gracefully), if any.
  public static func bootstrap(
    configuration: ServiceConfiguration,
    environment: [String: String],
    logger: Logger
  ) throws -> (any Service)? {
    switch Self.export(configuration: configuration, environment: environment) {
    case .off:
      InstrumentationSystem.bootstrap(PropagatingTracer())
      return nil
    case .otlp(let endpoint):
      var otel = OTel.Configuration.default
      otel.serviceName = configuration.serviceName
      otel.propagators = [.traceContext]
      otel.diagnosticLogger = .custom(logger)
      otel.diagnosticLogLevel = .warning
      otel.metrics.enabled = false
      otel.logs.enabled = false
      otel.traces.enabled = true
      otel.traces.sampler = .parentBasedAlwaysOn
      otel.traces.exporter = .otlp
      if configuration.otlpEndpoint != nil {
        // As OTEL_EXPORTER_OTLP_ENDPOINT would: a base URL the traces path goes under. The
        // OTel variables, if also set, still win (swift-otel reads them over this).
        otel.traces.otlpExporter.endpoint = Self.tracesURL(base: endpoint)
      }
      let (tracer, service) = try OTel.makeTracingBackend(configuration: otel)
      InstrumentationSystem.bootstrap(tracer)
      return service
    }
  }

  /// `base` + `/v1/traces`, the OTLP/HTTP traces path.
  static func tracesURL(base: String) -> String {
    base.hasSuffix("/") ? base + "v1/traces" : base + "/v1/traces"
  }
}
