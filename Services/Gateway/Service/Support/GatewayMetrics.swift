import BinarioServiceKit
import Prometheus
import Synchronization

/// What the gateway records for Prometheus:
///
/// - `gateway_calls_total{door, upstream, code}`: calls by front door (`binario`, `grpc`,
///   `http-json`), upstream (`identity`; `gateway` for calls the gateway answered itself: unknown
///   routes, refusals, health) and status code name;
/// - `gateway_call_duration_seconds{door, upstream}`: from the call's `Open` to its `End`, for
///   calls that are not streams (a stream's length says how long someone watched, not how fast
///   the suite answered);
/// - `gateway_held_calls{upstream}`: calls held now for an upstream that is unavailable;
/// - `gateway_call_retries_total{upstream, reason}`: calls sent to their upstream again, because
///   it `refused` them (it was going away), ended them `unavailable` part way (a read or a
///   keyed write), or a stream that resumes at a cursor was interrupted (`resumed`).
public final class GatewayMetrics: Sendable {
  private let registry: PrometheusCollectorRegistry
  /// The metrics already made, by labels: asking the registry takes its lock and builds the
  /// label set on every call, which the gateway would do for each call it forwards.
  private let made = Mutex<(counters: [CounterLabels: Counter], histograms: [HistogramLabels: DurationHistogram])>(([:], [:]))

  private struct CounterLabels: Hashable {
    var door: GatewayDoor
    var upstream: String
    var code: Int32
  }

  private struct HistogramLabels: Hashable {
    var door: GatewayDoor
    var upstream: String
  }

  public init(registry: PrometheusCollectorRegistry) {
    self.registry = registry
  }

  /// - Parameter duration: the call's; `nil` for a stream.
  func record(door: GatewayDoor, upstream: String, code: Int32, duration: Duration?) {
    let (counter, histogram) = self.made.withLock { made in
      let labels = CounterLabels(door: door, upstream: upstream, code: code)
      let histogramLabels = HistogramLabels(door: door, upstream: upstream)
      if let counter = made.counters[labels], let histogram = made.histograms[histogramLabels] {
        return (counter, histogram)
      }
      let counter = self.registry.makeCounter(
        descriptor: Self.calls,
        labels: [("door", door.rawValue), ("upstream", upstream), ("code", StatusCodeName.of(code))]
      )
      let histogram =
        made.histograms[histogramLabels]
        ?? self.registry.makeDurationHistogram(
          descriptor: Self.latency,
          labels: [("door", door.rawValue), ("upstream", upstream)],
          buckets: MetricsServerInterceptor.latencyBuckets
        )
      made.counters[labels] = counter
      made.histograms[histogramLabels] = histogram
      return (counter, histogram)
    }
    counter.increment()
    if let duration { histogram.record(duration) }
  }

  /// The gauge of the calls held for `upstream` (made once per upstream, at start).
  func heldCalls(upstream: String) -> Gauge {
    self.registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "gateway",
        metricName: "held_calls",
        helpText: "Calls the gateway holds for an upstream that is unavailable, to send when it is back."
      ),
      labels: [("upstream", upstream)]
    )
  }

  /// A call sent to `upstream` again: `refused`, `unavailable` or `resumed` (a stream).
  func recordRetry(upstream: String, reason: String) {
    self.registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "gateway",
        metricName: "call_retries",
        unitName: "total",
        helpText:
          "Calls the gateway sent to their upstream again: refused (it was going away), unavailable part way (reads and keyed writes), or a stream resumed at its cursor."
      ),
      labels: [("upstream", upstream), ("reason", reason)]
    ).increment()
  }

  // `MetricNameDescriptor` is not `Sendable`, so these are made on use rather than stored.
  private static var calls: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "gateway",
      metricName: "calls",
      unitName: "total",
      helpText: "Calls the gateway ended, by front door, upstream and status code."
    )
  }

  private static var latency: MetricNameDescriptor {
    MetricNameDescriptor(
      namespace: "gateway",
      metricName: "call_duration",
      unitName: "seconds",
      helpText: "Time from a call's Open to its End at the gateway, by front door and upstream."
    )
  }
}
