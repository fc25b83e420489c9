import Metrics
import Prometheus

/// Installs the process-wide swift-metrics backend: Prometheus, into the registry `/metrics` serves.
public enum ServiceMetrics {
  /// Bootstraps `MetricsSystem` so metrics made through swift-metrics anywhere in the process
  /// land in `registry`. swift-metrics allows this once per process: call it from `main`.
  public static func bootstrap(registry: PrometheusCollectorRegistry) {
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
  }
}
