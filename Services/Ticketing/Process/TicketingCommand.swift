import ArgumentParser
import BinarioAuth
import BinarioDomain
import BinarioEvents
import BinarioServiceKit
import Foundation
import TicketingService

/// The ticketing process: tickets, the wallet and validation, and subscriptions shared among
/// friends. Listens on the Binario transport (mutual TLS), keeps `ticketing.sqlite` in its data
/// directory, and calls identity (cards, friends, names) and scheduling (runs, followers,
/// notifications) with its own certificate.
public struct TicketingCommand: EventLoopCommand {
  public static let configuration = CommandConfiguration(
    commandName: "ticketing",
    abstract: "Binario's ticketing service: tickets, wallet, validation, subscriptions."
  )

  @OptionGroup var options: ServiceOptions
  @OptionGroup var identityAddress: IdentityAddressOption
  @OptionGroup var schedulingAddress: SchedulingAddressOption
  /// Optional: without it, quotes apply no route offers.
  @OptionGroup var geoOffersAddress: GeoOffersAddressOption
  @OptionGroup var ticketing: TicketingOptions

  public init() {}

  public func runOnEventLoops() async throws {
    try await ServiceRunner.run(
      options: options,
      serviceName: "ticketing",
      additionalSettings: identityAddress.additionalSettings + schedulingAddress.additionalSettings
        + geoOffersAddress.additionalSettings + ticketing.given,
      transport: .binario
    ) { context in
      let fareTable = try TicketingOptions.fareTable(context.additionalSettings)
      let zone = try TicketingOptions.zone(context.additionalSettings)
      let reminderDays = try TicketingOptions.reminderDays(context.additionalSettings)
      let store = try TicketingStore(directory: try context.ownDataDirectory())
      let clock = SystemClock()
      context.backUp(database: store.database, clock: clock)
      let accounts = IdentityAccountDirectory(identity: try context.identityClient())
      let scheduling = try context.schedulingClient()
      let codes = try await SignedTicketCodes.load(from: store, now: clock.now())
      let routeOffers: any RouteOfferLookup =
        context.hasPeerAddress(GeoOffersPeer.self)
        ? GeoOffersRouteOffers(client: try context.peerClient(GeoOffersPeer.self), logger: context.logger) : NoRouteOffers()
      let domain = TicketingDomain(
        store: store,
        clock: clock,
        timetable: SchedulingTimetable(client: scheduling),
        accounts: accounts,
        charger: RecordingCardCharger(store: store, now: { clock.now() }),
        codes: codes,
        zone: zone,
        routeOffers: routeOffers
      )
      if let fareTable, try await domain.loadFareTable(fareTable.data) {
        context.logger.notice("loaded the fare table", metadata: ["file": "\(fareTable.path)"])
      }
      let reminders = RenewalReminders(
        store: store,
        clock: clock,
        notifier: SchedulingNotificationSender(client: scheduling),
        zone: zone,
        daysBefore: reminderDays
      )
      let subscriptions = SubscriptionsDomain(
        store: store,
        clock: clock,
        accounts: accounts,
        zone: zone,
        defaultReminderDays: reminderDays,
        changed: { reminders.wake() }
      )
      let logger = context.logger
      // Every 15 minutes, and at once when a subscription is added or changed.
      context.addJob(
        PeriodicJob("renewal-reminders", every: .seconds(15 * 60), wakeUps: reminders.wakeUps.stream, logger: logger) {
          try await reminders.runOnce()
          return nil
        }
      )
      // Follow changes scheduling did not take at purchase or refund.
      context.addJob(
        PeriodicJob("follow-change-retries", every: .seconds(30), logger: logger) {
          try await domain.retryFollowChanges()
          return nil
        }
      )
      // Quotes nobody bought.
      context.addJob(
        PeriodicJob("quote-housekeeping", every: .seconds(15 * 60), logger: logger) {
          try await domain.removeExpiredQuotes()
          return nil
        }
      )
      // Identity's events: a deleted account's quotes and subscriptions erased, its purchases
      // de-identified; friends who part leave each other's shared subscriptions.
      let identityEvents = IdentityEvents(
        accounts: AccountLifecycle(store: store, clock: clock, notifier: SchedulingNotificationSender(client: scheduling)),
        logger: logger
      )
      try context.subscribe(to: IdentityPeer.self, database: store.database, types: IdentityEvents.types, handle: identityEvents.handle)
      // Scheduling's timetable events: tickets follow their runs when renamed, edited, removed
      // or re-imported.
      let schedulingEvents = SchedulingEvents(
        changes: TimetableChanges(store: store, clock: clock, timetable: SchedulingTimetable(client: scheduling)),
        logger: logger
      )
      try context.subscribe(to: SchedulingPeer.self, database: store.database, types: SchedulingEvents.types, handle: schedulingEvents.handle)
      context.checkAccess(with: AuthorizationServerInterceptor(policy: .ticketing.merging(.health)))
      return [
        TicketsHandler(domain: domain, codes: codes),
        SubscriptionsHandler(domain: subscriptions),
      ]
    }
  }
}
