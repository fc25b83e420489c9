import ArgumentParser
import AsyncHTTPClient
import BinarioAuth
import BinarioDomain
import BinarioEvents
import BinarioServiceKit
import Foundation
import SchedulingService

/// The scheduling process: the timetable and its live changes, the suite's notification centre,
/// shared itineraries. Listens on the Binario transport (mutual TLS), keeps `scheduling.sqlite`
/// in its data directory, loads the timetable folder at first start, and calls identity (who
/// people are, who is whose friend) with its own certificate.
public struct SchedulingCommand: EventLoopCommand {
  public static let configuration = CommandConfiguration(
    commandName: "scheduling",
    abstract: "Binario's scheduling service: timetable, live changes, notifications, itineraries."
  )

  /// The services that follow scheduling's timetable events (docs/events.md): only they may read
  /// the log, and it keeps events until each has acknowledged them.
  static let eventConsumers = ["ticketing", "geo-offers"]

  @OptionGroup var options: ServiceOptions
  @OptionGroup var identityAddress: IdentityAddressOption
  @OptionGroup var scheduling: SchedulingOptions

  public init() {}

  public func runOnEventLoops() async throws {
    try await ServiceRunner.run(
      options: options,
      serviceName: "scheduling",
      additionalSettings: identityAddress.additionalSettings + scheduling.given,
      transport: .binario
    ) { context in
      let folder = try SchedulingOptions.folder(context.additionalSettings)
      let zone = try SchedulingOptions.zone(context.additionalSettings)
      let store = try SchedulingStore(directory: try context.ownDataDirectory())
      let clock = SystemClock()
      context.backUp(database: store.database, clock: clock)
      let directory = IdentityAccountDirectory(identity: try context.identityClient())
      let webPush = try SchedulingOptions.webPush(context.additionalSettings)
      let outbox = OutboxPushProvider(store: store, clock: clock)
      let pushClient = try SchedulingOptions.pushClient(context.additionalSettings)
      if pushClient !== HTTPClient.shared { context.addService(PushClientLifetime(client: pushClient), name: "web-push-client") }
      let push: any PushProvider =
        if let webPush {
          WebPushProvider(
            identity: webPush,
            client: pushClient,
            outbox: outbox,
            clock: clock,
            logger: context.logger
          )
        } else {
          outbox
        }
      let dispatcher = DeliveryDispatcher(
        store: store,
        directory: directory,
        push: push,
        email: OutboxEmailProvider(store: store, clock: clock),
        text: OutboxTextProvider(store: store, clock: clock),
        logger: context.logger
      )
      let centre = NotificationCentre(store: store, clock: clock, dispatcher: dispatcher, webPushPublicKey: webPush?.publicKey ?? "")
      let domain = try SchedulingDomain(store: store, clock: clock, zone: zone, notifications: centre)
      let planner = ItineraryPlanner(store: store, clock: clock, directory: directory, notifications: centre, trains: domain)
      if let folder, let loaded = try await domain.importIfEmpty(folder: folder) {
        context.logger.notice(
          "loaded the timetable at first start",
          metadata: ["folder": "\(folder)", "stations": "\(loaded.stations)", "trips": "\(loaded.trips)"]
        )
      }
      // After each commit that made notifications (and every minute, in case).
      context.addJob(
        PeriodicJob("notification-deliveries", every: .seconds(60), wakeUps: dispatcher.wakeUps.stream, logger: context.logger) {
          _ = try await dispatcher.deliverWaiting()
          return nil
        }
      )
      // Open notification streams would otherwise hold the drain open for the whole grace period;
      // ended, clients reconnect with their cursor and miss nothing.
      context.onGracefulShutdown { centre.broadcaster.close() }
      // Identity's events: a deleted account's itineraries, inbox and devices erased; friends
      // who part leave each other's itineraries; invites that waited for a friendship or an
      // account go out.
      let identityEvents = IdentityEvents(
        accounts: AccountLifecycle(store: store, clock: clock, notifications: centre),
        itineraries: planner,
        logger: context.logger
      )
      try context.subscribe(to: IdentityPeer.self, database: store.database, types: IdentityEvents.types, handle: identityEvents.handle)
      // Timetable changes, for the services that hold references to runs and stations.
      let events = context.addEventLog(
        EventLog(producer: "scheduling", database: store.database, outbox: store.events, consumers: Self.eventConsumers)
      )
      context.checkAccess(with: AuthorizationServerInterceptor(policy: .scheduling.merging(.events).merging(.health)))
      return [
        events,
        SchedulingHandler(domain: domain, logger: context.logger),
        NotificationsHandler(centre: centre),
        ItinerariesHandler(planner: planner),
      ]
    }
  }
}
