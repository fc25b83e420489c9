import ArgumentParser
import BinarioAuth
import BinarioDomain
import BinarioEvents
import BinarioServiceKit
import DispatchService
import Foundation

/// The dispatch process: taxis on demand. Listens on the Binario transport (mutual TLS), keeps
/// `dispatch.sqlite` in its data directory, and calls identity (accounts, cards) and scheduling
/// (notifications) with its own certificate. Beside the server run the offer timeouts, the
/// checks for late and silent taxis, the settlement of ended rides and the notification outbox.
public struct DispatchCommand: EventLoopCommand {
  public static let configuration = CommandConfiguration(
    commandName: "dispatch",
    abstract: "Binario's dispatch service: taxis on demand, fair zone queues, drivers' offers and the control room."
  )

  @OptionGroup var options: ServiceOptions
  @OptionGroup var identityAddress: IdentityAddressOption
  @OptionGroup var schedulingAddress: SchedulingAddressOption
  @OptionGroup var dispatch: DispatchOptions
  @OptionGroup var testClock: TestClockOption

  public init() {}

  public func runOnEventLoops() async throws {
    try await ServiceRunner.run(
      options: options,
      serviceName: "dispatch",
      additionalSettings: identityAddress.additionalSettings + schedulingAddress.additionalSettings + dispatch.given
        + testClock.additionalSettings,
      transport: .binario
    ) { context in
      let settings = try DispatchOptions.settings(context.additionalSettings)
      let zones = try DispatchOptions.zoneMap(context.additionalSettings)
      let gazetteer = try DispatchOptions.gazetteer(context.additionalSettings)
      let store = try DispatchStore(directory: try context.ownDataDirectory())
      let clock = try context.domainClock()
      context.backUp(database: store.database, clock: clock)
      let logger = context.logger
      let domain = DispatchDomain(
        store: store,
        clock: clock,
        zones: zones,
        accounts: IdentityAccountDirectory(identity: try context.identityClient()),
        payments: RecordingRidePayments(store: store, now: { clock.now() }),
        geocoder: SavedPlacesAndGazetteer(store: store, gazetteer: gazetteer),
        settings: settings,
        logger: logger
      )
      logger.notice(
        "taxi zones loaded",
        metadata: ["zones": "\(zones.zones.count)", "addresses": "\(gazetteer.count)"]
      )
      let notifier = try context.notificationSender(timeout: .seconds(5))
      // The outbox after every commit that queued a notification (and every minute, in case).
      context.addJob(
        PeriodicJob("notification-outbox", every: .seconds(60), wakeUps: domain.outboxWakeUps, logger: logger) {
          try await domain.sendOutbox(through: notifier)
          return nil
        }
      )
      // At each pending offer's expiry, looking again at least every 250 ms for new offers.
      context.addJob(PeriodicJob("offer-timeouts", every: .milliseconds(250), logger: logger) { try await domain.expireOffersPass() })
      // Reservations due and late or silent taxis every 15 s.
      context.addJob(
        PeriodicJob("ride-checks", every: .seconds(15), logger: logger) {
          try await domain.dispatchDueReservations()
          try await domain.runChecks()
          return nil
        }
      )
      // Ended rides left unsettled (a crash, a provider that failed), at start and every minute.
      context.addJob(
        PeriodicJob("ride-settlement", every: .seconds(60), logger: logger) {
          try await domain.settleEndedRides()
          return nil
        }
      )
      // Identity's events: a deleted or disabled account's bookings cancelled without a fee and
      // its taxi out of its queue; a deleted one's rides de-identified, its places erased.
      let identityEvents = IdentityEvents(domain: domain, logger: logger)
      try context.subscribe(to: IdentityPeer.self, database: store.database, types: IdentityEvents.types, handle: identityEvents.handle)
      context.checkAccess(with: AuthorizationServerInterceptor(policy: .dispatch.merging(.health)))
      return [DispatchHandler(domain: domain)]
    }
  }
}
