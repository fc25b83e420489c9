import BinarioDomain
import BinarioStorage
import Foundation
import GRDB
import Logging
import NIOPosix
import Prometheus

extension ServiceRunnerContext {
  /// The data directory, locked for this process (``DataDirectoryLock``) until it exits: open
  /// the service's database in it. Throws ``DataDirectoryLock/Held`` when another process
  /// serves from it (or a restore is under way).
  public func ownDataDirectory() throws -> String {
    let directory = self.configuration.dataDirectory
    try self.dataDirectoryLock.withLock { lock in
      if lock == nil { lock = try DataDirectoryLock(directory: directory) }
    }
    return directory
  }

  /// Backs up `database` (its file) every ``ServiceConfiguration/backupInterval`` into
  /// ``ServiceConfiguration/backupFolder``, keeping the newest ``ServiceConfiguration/backupKeep``
  /// (``DatabaseBackups``); nothing when backups are off.
  ///
  /// A job whose pass takes one when the newest backup is an interval old, by `clock`: a restart
  /// neither takes one at once nor waits a whole interval, and the first start takes one. The
  /// copy runs on NIO's thread pool, off the event loops. For `deploy/monitoring`'s alert:
  /// `binario_backup_last_success_timestamp_seconds`, `binario_backup_interval_seconds`,
  /// `binario_backup_last_size_bytes`, `binario_backup_failures_total`.
  public func backUp(database: DatabasePool, clock: any DomainClock = SystemClock()) {
    guard let interval = self.configuration.backupInterval else {
      self.logger.notice("database backups are off (--backup-interval off)")
      return
    }
    let backups = DatabaseBackups(
      database: URL(fileURLWithPath: database.path),
      directory: URL(fileURLWithPath: self.configuration.backupFolder)
    )
    let keep = self.configuration.backupKeep
    let meters = BackupMeters(registry: self.metricsRegistry)
    meters.interval.set(interval)
    if let newest = try? backups.list().first {
      meters.lastSuccess.set(newest.takenAt.timeIntervalSince1970)
      meters.lastSize.set(Double(newest.bytes))
    }
    let logger = self.logger
    self.addJob(
      PeriodicJob("database-backup", every: .seconds(interval), logger: logger) {
        let now = clock.now()
        if let newest = try backups.list().first {
          let age = now.timeIntervalSince(newest.takenAt)
          if age < interval { return .seconds(interval - age) }
        }
        let started = ContinuousClock.now
        let (backup, pruned): (DatabaseBackups.Backup, [DatabaseBackups.Backup])
        do {
          (backup, pruned) = try await NIOThreadPool.singleton.runIfActive {
            let backup = try backups.take(at: now)
            return (backup, try backups.prune(keeping: keep))
          }
        } catch {
          meters.failures.increment()
          throw error
        }
        meters.lastSuccess.set(backup.takenAt.timeIntervalSince1970)
        meters.lastSize.set(Double(backup.bytes))
        logger.notice(
          "backed up the database",
          metadata: [
            "backup": "\(backup.file.path)", "bytes": "\(backup.bytes)", "took": "\(ContinuousClock.now - started)",
            "deleted": "\(pruned.map(\.file.lastPathComponent))",
          ]
        )
        return nil
      }
    )
  }
}

/// The backup job's metrics.
private struct BackupMeters: Sendable {
  let lastSuccess: Gauge
  let interval: Gauge
  let lastSize: Gauge
  let failures: Counter

  init(registry: PrometheusCollectorRegistry) {
    func named(_ name: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
      MetricNameDescriptor(namespace: "binario", subsystem: "backup", metricName: name, unitName: unit, helpText: help)
    }
    self.lastSuccess = registry.makeGauge(
      descriptor: named("last_success_timestamp", "seconds", "When the newest backup of the database was taken (Unix time)")
    )
    self.interval = registry.makeGauge(descriptor: named("interval", "seconds", "How often the database is backed up"))
    self.lastSize = registry.makeGauge(descriptor: named("last_size", "bytes", "Size of the newest backup"))
    self.failures = registry.makeCounter(descriptor: named("failures", "total", "Backups that failed"))
  }
}
