import ArgumentParser
import BinarioAuth
import BinarioDomain
import BinarioEvents
import BinarioServiceKit
import Foundation
import GeoOffersService

/// The geo-offers process: deals, route offers and places near a position, the nearest
/// stations, and welcomes at the station. Listens on the Binario transport (mutual TLS), keeps
/// `geo-offers.sqlite` in its data directory, calls scheduling (stations, live runs,
/// notifications) and ticketing (a user's tickets leaving a station) with its own certificate,
/// and follows identity's account events.
public struct GeoOffersCommand: EventLoopCommand {
  public static let configuration = CommandConfiguration(
    commandName: "geo-offers",
    abstract: "Binario's geo-offers service: deals, route offers and places nearby, nearest stations, welcomes."
  )

  @OptionGroup var options: ServiceOptions
  @OptionGroup var identityAddress: IdentityAddressOption
  @OptionGroup var schedulingAddress: SchedulingAddressOption
  @OptionGroup var ticketingAddress: TicketingAddressOption
  @OptionGroup var geoOffers: GeoOffersOptions

  public init() {}

  public func runOnEventLoops() async throws {
    try await ServiceRunner.run(
      options: options,
      serviceName: "geo-offers",
      additionalSettings: identityAddress.additionalSettings + schedulingAddress.additionalSettings + ticketingAddress.additionalSettings
        + geoOffers.given,
      transport: .binario
    ) { context in
      let settings = try GeoOffersOptions.settings(context.additionalSettings)
      let demoData = try GeoOffersOptions.demoData(context.additionalSettings)
      let store = try GeoOffersStore(directory: try context.ownDataDirectory())
      context.backUp(database: store.database)
      let scheduling = try context.schedulingClient()
      let ticketing = try context.peerClient(TicketingPeer.self)
      let logger = context.logger
      let domain = GeoOffersDomain(
        store: store,
        clock: SystemClock(),
        tickets: TicketingTickets(client: ticketing),
        timetable: SchedulingLiveTimetable(client: scheduling),
        notifier: SchedulingNotificationSender(client: scheduling),
        settings: settings,
        logger: logger
      )
      if let demoData, try await domain.loadDemoDataIfEmpty(demoData.data, source: demoData.path) {
        logger.notice("loaded the demo data", metadata: ["file": "\(demoData.path)"])
      }
      // The copy of scheduling's stations follows its imports (its TimetableReplaced events); a
      // new database is filled at once, retried until scheduling answers.
      context.addJob(
        PeriodicJob(
          "station-fill",
          every: .seconds(3600),
          retry: Backoff(initial: .milliseconds(250), maximum: .seconds(30)),
          logger: logger
        ) {
          let stations = try await domain.fillStationsIfEmpty()
          logger.notice("stations in step with scheduling", metadata: ["stations": "\(stations)"])
          return nil
        }
      )
      let schedulingEvents = SchedulingEvents(domain: domain, logger: logger)
      try context.subscribe(to: SchedulingPeer.self, database: store.database, types: SchedulingEvents.types, handle: schedulingEvents.handle)
      // Offers past the no-repeat period no longer matter.
      context.addJob(
        PeriodicJob("offer-housekeeping", every: .seconds(15 * 60), logger: logger) {
          try await domain.removeExpiredOffers()
          return nil
        }
      )
      // Identity's events: a deleted account's position, offers and welcomes erased.
      let identityEvents = IdentityEvents(domain: domain, logger: logger)
      try context.subscribe(to: IdentityPeer.self, database: store.database, types: IdentityEvents.types, handle: identityEvents.handle)
      context.checkAccess(with: AuthorizationServerInterceptor(policy: .geoOffers.merging(.health)))
      return [GeoOffersHandler(domain: domain)]
    }
  }
}
