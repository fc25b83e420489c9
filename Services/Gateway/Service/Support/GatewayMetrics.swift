import BinarioServiceKit
import Prometheus

/// What the gateway records for Prometheus:
///
/// - `gateway_calls_total{upstream, code}`: calls by upstream (`identity`; `gateway` for calls
///   the gateway answered itself: unknown routes, refusals, health) and status code name;
/// - `gateway_call_duration_seconds{upstream}`: from the call's `Open` to its `End`.
public final class GatewayMetrics: Sendable {
  private let registry: PrometheusCollectorRegistry

  public init(registry: PrometheusCollectorRegistry) {
    self.registry = registry
  }

  func record(upstream: String, code: Int32, duration: Duration?) {
    self.registry.makeCounter(
      descriptor: Self.calls,
      labels: [("upstream", upstream), ("code", StatusCodeName.of(code))]
    ).increment()
    if let duration {
      self.registry.makeDurationHistogram(
        descriptor: Self.latency,
        labels: [("upstream", upstream)],
        buckets: MetricsServerInterceptor.latencyBuckets
      ).record(duration)
    }
  }

  // `MetricNameDescriptor` is not `Sendable`, so these are made on use rather than stored.
  private static var calls: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "gateway", metricName: "calls", unitName: "total",
      helpText: "Calls the gateway ended, by upstream and status code."
    )
  }

  private static var latency: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "gateway", metricName: "call_duration", unitName: "seconds",
      helpText: "Time from a call's Open to its End at the gateway, by upstream."
    )
  }
}
