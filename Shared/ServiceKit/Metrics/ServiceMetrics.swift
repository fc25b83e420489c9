import Metrics
import Prometheus
import Synchronization

/// Installs the process-wide swift-metrics backend: Prometheus, into the registry `/metrics`
/// serves, with each metric's help text as its owner described it (``describe(_:help:)``):
/// Prometheus' own lint (`promtool check metrics`, which `deploy/monitoring/check.py` runs on the
/// processes' real output) wants one on every metric.
public enum ServiceMetrics {
  /// Bootstraps `MetricsSystem` so metrics made through swift-metrics anywhere in the process
  /// land in `registry`. swift-metrics allows this once per process: call it from `main`.
  public static func bootstrap(registry: PrometheusCollectorRegistry) {
    MetricsSystem.bootstrap(DescribedMetricsFactory(registry: registry))
  }

  /// Gives the metric `name`, made through swift-metrics, its help text. Call it before the
  /// metric is first made (its owner's initialiser); the text must be the same every time.
  public static func describe(_ name: String, help: String) {
    helpTexts.withLock { $0[name] = help }
  }

  static let helpTexts = Mutex<[String: String]>([:])
}

/// swift-prometheus' factory, but for the help text of each metric (``ServiceMetrics/describe(_:help:)``).
struct DescribedMetricsFactory: MetricsFactory {
  let registry: PrometheusCollectorRegistry
  private let prometheus: PrometheusMetricsFactory

  init(registry: PrometheusCollectorRegistry) {
    self.registry = registry
    self.prometheus = PrometheusMetricsFactory(registry: registry)
  }

  private func descriptor(_ label: String) -> MetricNameDescriptor {
    MetricNameDescriptor(metricName: label, unitName: "", helpText: ServiceMetrics.helpTexts.withLock { $0[label] } ?? "")
  }

  func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
    self.registry.makeCounter(descriptor: self.descriptor(label), labels: dimensions)
  }

  func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
    self.registry.makeCounter(descriptor: self.descriptor(label), labels: dimensions)
  }

  func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
    guard aggregate else { return self.registry.makeGauge(descriptor: self.descriptor(label), labels: dimensions) }
    return self.registry.makeValueHistogram(
      descriptor: self.descriptor(label),
      labels: dimensions,
      buckets: self.prometheus.valueHistogramBuckets[label] ?? self.prometheus.defaultValueHistogramBuckets
    )
  }

  func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
    self.registry.makeGauge(descriptor: self.descriptor(label), labels: dimensions)
  }

  func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
    self.registry.makeDurationHistogram(
      descriptor: self.descriptor(label),
      labels: dimensions,
      buckets: self.prometheus.durationHistogramBuckets[label] ?? self.prometheus.defaultDurationHistogramBuckets
    )
  }

  func destroyCounter(_ handler: any CounterHandler) { self.prometheus.destroyCounter(handler) }
  func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { self.prometheus.destroyFloatingPointCounter(handler) }
  func destroyRecorder(_ handler: any RecorderHandler) { self.prometheus.destroyRecorder(handler) }
  func destroyMeter(_ handler: any MeterHandler) { self.prometheus.destroyMeter(handler) }
  func destroyTimer(_ handler: any TimerHandler) { self.prometheus.destroyTimer(handler) }
}
