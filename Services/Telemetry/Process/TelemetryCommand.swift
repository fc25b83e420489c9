import ArgumentParser
import BinarioAuth
import BinarioDomain
import BinarioEvents
import BinarioServiceKit
import Foundation
import TelemetryService

/// The telemetry process: sensor boards' readings and the regional reference stations. Listens
/// on the Binario transport (mutual TLS) and keeps `telemetry.sqlite` in its data directory; it
/// follows identity's account events (a deleted account's boards are erased). Beside the server
/// runs the scheduled fetch of the open-data portal sources (configured, and saved by admins;
/// with async-http-client), retried with backoff, never fatal.
public struct TelemetryCommand: EventLoopCommand {
  public static let configuration = CommandConfiguration(
    commandName: "telemetry",
    abstract: "Binario's telemetry service: sensor boards' readings beside the regional reference stations."
  )

  @OptionGroup var options: ServiceOptions
  @OptionGroup var identityAddress: IdentityAddressOption
  @OptionGroup var schedulingAddress: SchedulingAddressOption
  @OptionGroup var telemetry: TelemetryOptions

  public init() {}

  public func runOnEventLoops() async throws {
    try await ServiceRunner.run(
      options: options,
      serviceName: "telemetry",
      additionalSettings: identityAddress.additionalSettings + schedulingAddress.additionalSettings + telemetry.given,
      transport: .binario
    ) { context in
      let sources = try TelemetryOptions.referenceSources(context.additionalSettings)
      let fetchPeriod = try TelemetryOptions.fetchPeriod(context.additionalSettings)
      let store = try TelemetryStore(directory: try context.ownDataDirectory())
      context.backUp(database: store.database)
      let logger = context.logger
      let domain = TelemetryDomain(
        store: store,
        clock: SystemClock(),
        downloader: HTTPReferenceDownloader(),
        sources: sources,
        notifier: try context.notificationSender(timeout: .seconds(10)),
        fetchPeriod: fetchPeriod,
        logger: logger
      )
      logger.notice(
        "fetching reference data as it falls due",
        metadata: ["configured": "\(sources.map(\.name).joined(separator: ","))", "every": "\(fetchPeriod)"]
      )
      // Each source as it falls due: every fetch period, one that failed after a backoff.
      context.addJob(
        PeriodicJob("reference-fetch", every: .seconds(30), logger: logger) {
          await domain.fetcher.fetchPass(domain.sources, every: domain.fetchPeriod)
        }
      )
      // People's air alerts, each pass from the state the last one saved: every 30 s, and soon
      // after an upload.
      context.addJob(
        PeriodicJob("air-alerts", every: .seconds(30), wakeUps: domain.alerts.wakeUps.stream, logger: logger) {
          try await domain.alerts.runOnce()
          return nil
        }
      )
      // Identity's account events: a deleted account's boards erased, a disabled one's refused.
      let identityEvents = IdentityEvents(accounts: domain.accounts, logger: logger)
      try context.subscribe(to: IdentityPeer.self, database: store.database, types: IdentityEvents.types, handle: identityEvents.handle)
      // Live mode's streams end at shutdown: watchers reconnect rather than hold the drain open.
      context.onGracefulShutdown { domain.live.uploads.close() }
      context.checkAccess(with: AuthorizationServerInterceptor(policy: .telemetry.merging(.health)))
      return [TelemetryHandler(domain: domain)]
    }
  }
}
