import ArgumentParser
import BinarioProto
import Foundation
import SwiftProtobuf

/// A point given on the command line.
struct PositionOptions: ParsableArguments {
  @Option(help: "Degrees north (-90 to 90), e.g. 45.4861.") var latitude: Double
  @Option(help: "Degrees east (-180 to 180), e.g. 9.2045.") var longitude: Double
}

/// `binario here`: report where you are; prints deals, the nearest station and its route
/// offers, places to visit and any welcome.
struct HereCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "here",
    abstract:
      "Tell Binario where you are: deals nearby (each offered once a day), the nearest station and its offers, places to visit, a welcome at your train's station.",
    discussion: "binario here --latitude 45.4861 --longitude 9.2045 --accuracy 15"
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var position: PositionOptions
  @Option(help: "How precise the position is, in metres (0: unknown).") var accuracy: Double = 0

  func call(_ gateway: GatewayConnection) async throws {
    let report = try await gateway.geoOffers.reportLocation(
      .with {
        $0.latitude = position.latitude
        $0.longitude = position.longitude
        $0.accuracyMetres = accuracy
      }
    )
    if report.hasWelcome { print(report.welcome.message) }
    print(report.deals.isEmpty ? "No new deals here." : "Deals near you:")
    report.deals.forEach(Print.nearbyDeal)
    if report.hasNearestStation {
      print("Nearest station:")
      Print.nearestStation(report.nearestStation)
      if !report.routeOffers.isEmpty { print("Offers from \(report.nearestStation.station.name):") }
      report.routeOffers.forEach(Print.routeOffer)
    }
    if !report.places.isEmpty { print("Places to visit:") }
    report.places.forEach(Print.nearbyPlace)
    if !report.stored { print("(a newer position of yours is already kept)") }
  }
}

/// `binario nearest`: the nearest stations with walking directions.
struct NearestCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "nearest",
    abstract: "The stations nearest a point, with walking directions (a Google Maps link).",
    discussion: "binario nearest --latitude 45.4642 --longitude 9.1900 --count 3"
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var position: PositionOptions
  @Option(help: "How many (1 to 20).") var count: UInt32 = 3

  func call(_ gateway: GatewayConnection) async throws {
    let response = try await gateway.geoOffers.listNearestStations(
      .with {
        $0.latitude = position.latitude
        $0.longitude = position.longitude
        $0.count = count
      }
    )
    if response.stations.isEmpty { print("no stations") }
    response.stations.forEach(Print.nearestStation)
  }
}

/// `binario deals`: deals active near a point (nothing recorded).
struct DealsCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "deals",
    abstract: "Deals active near a point, nearest first.",
    discussion: "binario deals --latitude 45.4861 --longitude 9.2045 --radius 500"
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var position: PositionOptions
  @Option(help: "Metres (default 300).") var radius: Double = 0

  func call(_ gateway: GatewayConnection) async throws {
    let response = try await gateway.geoOffers.listNearbyDeals(
      .with {
        $0.latitude = position.latitude
        $0.longitude = position.longitude
        $0.radiusMetres = radius
      }
    )
    if response.deals.isEmpty { print("no deals here") }
    response.deals.forEach(Print.nearbyDeal)
  }
}

/// `binario places`: places to visit near a point.
struct PlacesCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "places",
    abstract: "Places to visit near a point, nearest first.",
    discussion: "binario places --latitude 45.4642 --longitude 9.1900 --radius 1500 --category museum"
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @OptionGroup var position: PositionOptions
  @Option(help: "Metres (default 1000).") var radius: Double = 0
  @Option(help: "monument, museum, church, park, theatre, viewpoint, neighbourhood or other.") var category: String?

  func call(_ gateway: GatewayConnection) async throws {
    var request = Binario_GeoOffers_V1_ListNearbyPlacesRequest()
    request.latitude = position.latitude
    request.longitude = position.longitude
    request.radiusMetres = radius
    if let category {
      guard let parsed = Binario_GeoOffers_V1_PlaceCategory(name: category) else {
        throw ValidationError("--category: monument, museum, church, park, theatre, viewpoint, neighbourhood or other")
      }
      request.category = parsed
    }
    let response = try await gateway.geoOffers.listNearbyPlaces(request)
    if response.places.isEmpty { print("no places here") }
    response.places.forEach(Print.nearbyPlace)
  }
}

/// `binario route-offers`: Trenord's offers from a station.
struct RouteOffersCommand: ConnectedCommand {
  static let configuration = CommandConfiguration(
    commandName: "route-offers",
    abstract: "Route offers from a station (or every station), active now.",
    discussion: "binario route-offers --station MI_CENTRALE"
  )
  @OptionGroup var gateway: GatewayConnectionOptions
  @Option(help: "A station id (default: every station).") var station: String?
  @Flag(help: "Also those not yet or no longer valid.") var all = false

  func call(_ gateway: GatewayConnection) async throws {
    let response = try await gateway.geoOffers.listRouteOffers(
      .with {
        $0.stationID = station ?? ""
        $0.includeInactive = all
      }
    )
    if response.offers.isEmpty { print("no route offers") }
    response.offers.forEach(Print.routeOffer)
  }
}

/// `binario location show|forget`.
struct LocationCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "location",
    abstract: "The last position of yours Binario keeps: show it, or forget it.",
    subcommands: [Show.self, Forget.self],
    defaultSubcommand: Show.self
  )

  struct Show: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Your last known location.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      let location = try await gateway.geoOffers.getMyLocation(.init())
        .location
      print(
        String(format: "%.6f, %.6f (±%.0f m) at %@", location.latitude, location.longitude, location.accuracyMetres, Print.date(location.reportedAt))
      )
    }
  }

  struct Forget: ConnectedCommand {
    static let configuration = CommandConfiguration(abstract: "Forget your location and which deals you were offered.")
    @OptionGroup var gateway: GatewayConnectionOptions

    func call(_ gateway: GatewayConnection) async throws {
      _ = try await gateway.geoOffers.forgetMyLocation(.init())
      print("forgotten")
    }
  }
}
