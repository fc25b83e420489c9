import GRPCCore
import Prometheus
import Synchronization

/// Records every call the server handles into a Prometheus registry:
///
/// - `grpc_server_calls_total{method, code}`: calls by fully qualified method
///   (`binario.identity.v1.Identity/Login`) and status code name (`OK`, `NOT_FOUND`, …);
/// - `grpc_server_errors_total{method, code}`: the same, for calls that did not end `OK`;
/// - `grpc_server_call_duration_seconds{method}`: from the call reaching the interceptor to its
///   status, bucketed from 100 µs to 10 s.
///
/// Works for all four call kinds: the status is taken when the response producer finishes.
public final class MetricsServerInterceptor: ServerInterceptor {
  /// The latency histogram's upper bounds.
  public static let latencyBuckets: [Duration] = [
    .microseconds(100), .microseconds(250), .microseconds(500),
    .milliseconds(1), .microseconds(2500), .milliseconds(5),
    .milliseconds(10), .milliseconds(25), .milliseconds(50),
    .milliseconds(100), .milliseconds(250), .milliseconds(500),
    .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
  ]

  private let registry: PrometheusCollectorRegistry
  /// The metrics already made, by method: asking the registry takes its lock and hashes the
  /// label set of each metric on every call.
  private let made = Mutex<[String: MethodMetrics]>([:])

  /// One method's metrics: its latency histogram and its counters by status code.
  private struct MethodMetrics {
    var latency: DurationHistogram
    var calls: [Status.Code: Counter] = [:]
    var errors: [Status.Code: Counter] = [:]
  }

  /// - Parameter registry: Where the metrics live; the one the `/metrics` endpoint serves.
  public init(registry: PrometheusCollectorRegistry) {
    self.registry = registry
  }

  public func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    try await ServerCallPipeline(metrics: self).intercept(request: request, context: context, next: next)
  }

  func record(method: String, outcome: RPCOutcome, elapsed: Duration) {
    let (latency, calls, errors) = self.made.withLock { made in
      var metrics =
        made[method]
        ?? MethodMetrics(
          latency: self.registry.makeDurationHistogram(
            descriptor: Self.latency,
            labels: [("method", method)],
            buckets: Self.latencyBuckets
          )
        )
      let code = outcome.code
      let labels = [("method", method), ("code", outcome.name)]
      let calls = metrics.calls[code] ?? self.registry.makeCounter(descriptor: Self.calls, labels: labels)
      metrics.calls[code] = calls
      var errors: Counter?
      if !outcome.isOK {
        errors = metrics.errors[code] ?? self.registry.makeCounter(descriptor: Self.errors, labels: labels)
        metrics.errors[code] = errors
      }
      made[method] = metrics
      return (metrics.latency, calls, errors)
    }
    calls.increment()
    errors?.increment()
    latency.record(elapsed)
  }

  // `MetricNameDescriptor` is not `Sendable`, so these are made on use rather than stored.
  private static var calls: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "grpc",
      subsystem: "server",
      metricName: "calls",
      unitName: "total",
      helpText: "RPCs completed by the server, by method and status code."
    )
  }

  private static var errors: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "grpc",
      subsystem: "server",
      metricName: "errors",
      unitName: "total",
      helpText: "RPCs that ended with a status other than OK, by method and status code."
    )
  }

  private static var latency: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "grpc",
      subsystem: "server",
      metricName: "call_duration",
      unitName: "seconds",
      helpText: "Time from an RPC reaching the server's interceptors to its status."
    )
  }
}
