import Glibc
import Prometheus

/// Gauges read fresh at every scrape, for the alerts in `deploy/monitoring`: the `/metrics`
/// handler calls ``update()`` just before it writes the registry.
///
/// - `binario_ready`: 1 while every ``Readiness`` check passes, else 0 (`/readyz`'s answer, for a
///   Prometheus that cannot ask it);
/// - `binario_data_volume_size_bytes` and `binario_data_volume_available_bytes`: the file system
///   that holds the data directory (its databases and backups), as `statvfs` sees it, for the
///   space an unprivileged process may still use.
final class ScrapeTimeGauges: Sendable {
  private let readiness: Readiness
  private let ready: Gauge
  /// The data directory and its file system's gauges; none without a data directory.
  private let volume: (directory: String, size: Gauge, available: Gauge)?

  init(registry: PrometheusCollectorRegistry, readiness: Readiness, dataDirectory: String?) {
    self.readiness = readiness
    self.ready = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "binario",
        metricName: "ready",
        unitName: "",
        helpText: "1 while the process is ready (/readyz), else 0"
      )
    )
    self.volume = dataDirectory.map { directory in
      let size = registry.makeGauge(
        descriptor: MetricNameDescriptor(
          namespace: "binario",
          metricName: "data_volume_size",
          unitName: "bytes",
          helpText: "Size of the file system holding the data directory"
        )
      )
      let available = registry.makeGauge(
        descriptor: MetricNameDescriptor(
          namespace: "binario",
          metricName: "data_volume_available",
          unitName: "bytes",
          helpText: "Space left for the process on the file system holding the data directory"
        )
      )
      return (directory, size, available)
    }
  }

  func update() {
    self.ready.set(self.readiness.failures().isEmpty ? 1.0 : 0.0)
    guard let volume else { return }
    var stats = statvfs()
    guard statvfs(volume.directory, &stats) == 0 else { return }
    let blockSize = Double(stats.f_frsize)
    volume.size.set(Double(stats.f_blocks) * blockSize)
    volume.available.set(Double(stats.f_bavail) * blockSize)
  }
}
