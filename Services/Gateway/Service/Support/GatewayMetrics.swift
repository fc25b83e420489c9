import BinarioServiceKit
import Prometheus
import Synchronization

/// What the gateway records for Prometheus:
///
/// - `gateway_calls_total{upstream, code}`: calls by upstream (`identity`; `gateway` for calls
///   the gateway answered itself: unknown routes, refusals, health) and status code name;
/// - `gateway_call_duration_seconds{upstream}`: from the call's `Open` to its `End`.
public final class GatewayMetrics: Sendable {
  private let registry: PrometheusCollectorRegistry
  /// The metrics already made, by labels: asking the registry takes its lock and builds the
  /// label set on every call, which the gateway would do for each call it forwards.
  private let made = Mutex<(counters: [CounterLabels: Counter], histograms: [String: DurationHistogram])>(([:], [:]))

  private struct CounterLabels: Hashable {
    var upstream: String
    var code: Int32
  }

  public init(registry: PrometheusCollectorRegistry) {
    self.registry = registry
  }

  func record(upstream: String, code: Int32, duration: Duration) {
    let (counter, histogram) = self.made.withLock { made in
      let labels = CounterLabels(upstream: upstream, code: code)
      if let counter = made.counters[labels], let histogram = made.histograms[upstream] {
        return (counter, histogram)
      }
      let counter = self.registry.makeCounter(
        descriptor: Self.calls,
        labels: [("upstream", upstream), ("code", StatusCodeName.of(code))]
      )
      let histogram = self.registry.makeDurationHistogram(
        descriptor: Self.latency,
        labels: [("upstream", upstream)],
        buckets: MetricsServerInterceptor.latencyBuckets
      )
      made.counters[labels] = counter
      made.histograms[upstream] = histogram
      return (counter, histogram)
    }
    counter.increment()
    histogram.record(duration)
  }

  // `MetricNameDescriptor` is not `Sendable`, so these are made on use rather than stored.
  private static var calls: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "gateway",
      metricName: "calls",
      unitName: "total",
      helpText: "Calls the gateway ended, by upstream and status code."
    )
  }

  private static var latency: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "gateway",
      metricName: "call_duration",
      unitName: "seconds",
      helpText: "Time from a call's Open to its End at the gateway, by upstream."
    )
  }
}
