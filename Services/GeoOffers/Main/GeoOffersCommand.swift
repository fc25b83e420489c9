import ArgumentParser
import BinarioAuth
import BinarioDomain
import BinarioServiceKit
import Foundation
import GeoOffersService

/// The geo-offers process: deals, route offers and places near a position, the nearest
/// stations, and welcomes at the station. Listens on the Binario transport (mutual TLS), keeps
/// `geo-offers.sqlite` in its data directory, and calls scheduling (stations, live runs,
/// notifications) and ticketing (a user's tickets leaving a station) with its own certificate.
@main
struct GeoOffersCommand: EventLoopCommand {
  static let configuration = CommandConfiguration(
    commandName: "geo-offers",
    abstract: "Binario's geo-offers service: deals, route offers and places nearby, nearest stations, welcomes."
  )

  @OptionGroup var options: ServiceOptions
  @OptionGroup var schedulingAddress: SchedulingAddressOption
  @OptionGroup var ticketingAddress: TicketingAddressOption
  @OptionGroup var geoOffers: GeoOffersOptions

  func runOnEventLoops() async throws {
    let reader = OwnSettingReader()
    let settings = try geoOffers.settings(reader)
    let demoData = try geoOffers.demoDataFile(reader)
    try await ServiceRunner.run(
      options: options,
      serviceName: "geo-offers",
      additionalSettings: schedulingAddress.additionalSettings + ticketingAddress.additionalSettings,
      transport: .binario
    ) { context in
      let store = try GeoOffersStore(directory: context.configuration.dataDirectory)
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
      let stations = StationSync(client: scheduling, domain: domain, logger: logger)
      context.addService(BackgroundJobService { await stations.run() }, name: "station-sync")
      context.addService(
        BackgroundJobService {
          // Offers past the no-repeat period no longer matter.
          while !Task.isCancelled {
            do {
              try await domain.removeExpiredOffers()
            } catch {
              logger.warning("removing old offers failed; retrying later", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(15 * 60))
          }
        },
        name: "offer-housekeeping"
      )
      context.addInterceptor(AuthorizationServerInterceptor(policy: .geoOffers.merging(.health)))
      return [GeoOffersHandler(domain: domain)]
    }
  }
}
