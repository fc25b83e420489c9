import BinarioTracing
import Logging
import ServiceLifecycle
import Tracing

/// Installs the process's tracer (swift-distributed-tracing's `InstrumentationSystem`).
///
/// - With an OTLP endpoint (``ServiceConfiguration/otlpEndpoint``, or OpenTelemetry's own
///   `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), ``RecordingTracer``:
///   ended spans wait in a queue and one task exports them in batches over OTLP (HTTP/protobuf
///   unless `OTEL_EXPORTER_OTLP_PROTOCOL` says `http/json` or `grpc`; ``OTLPExportSettings``
///   lists the variables read); parent-based sampling by default: a caller's sampled flag is
///   followed, a new trace is sampled.
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
      let settings = try OTLPExportSettings.from(
        base: endpoint,
        serviceName: configuration.serviceName,
        environment: environment
      )
      let queue = SpanExportQueue(maxQueueSize: settings.maxQueueSize, batchSize: settings.maxExportBatchSize)
      let sender: any OTLPTraceSender =
        switch settings.wireProtocol {
        case .httpProtobuf, .httpJSON: OTLPHTTPTraceSender(settings: settings)
        case .grpc: try OTLPGRPCTraceSender(settings: settings)
        }
      InstrumentationSystem.bootstrap(RecordingTracer(sampler: settings.sampler, sink: queue))
      return OTLPSpanExporter(
        queue: queue,
        sender: sender,
        resource: settings.resource,
        scheduleDelay: settings.scheduleDelay,
        clock: ContinuousClock(),
        logger: logger
      )
    }
  }

  /// `base` + `/v1/traces`, the OTLP/HTTP traces path.
  static func tracesURL(base: String) -> String {
    base.hasSuffix("/") ? base + "v1/traces" : base + "/v1/traces"
  }
}
