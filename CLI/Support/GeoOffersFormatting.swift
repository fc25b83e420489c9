import BinarioProto
import Foundation
import SwiftProtobuf

/// How deals, places, stations and route offers print.
extension Print {
  /// `120 m` or `2.4 km`.
  static func distance(_ metres: Double) -> String {
    metres < 1_000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1_000)
  }

  static func nearbyDeal(_ nearby: Binario_GeoOffers_V1_NearbyDeal) {
    let deal = nearby.deal
    print("  \(deal.discountPercent)% off at \(deal.shopName), \(distance(nearby.distanceMetres)): \(deal.description_p)  [\(deal.dealID)]")
  }

  static func nearbyPlace(_ nearby: Binario_GeoOffers_V1_NearbyPlace) {
    let place = nearby.place
    print("  \(place.name) (\(category(place.category))), \(distance(nearby.distanceMetres)): \(place.description_p)")
  }

  static func nearestStation(_ nearest: Binario_GeoOffers_V1_NearestStation) {
    print("  \(nearest.station.name) [\(nearest.station.stationID)], \(distance(nearest.distanceMetres)), \(nearest.walkingMinutes) min on foot")
    print("    \(nearest.directionsURL)")
  }

  static func routeOffer(_ offer: Binario_GeoOffers_V1_RouteOffer) {
    var route = offer.originStationName.isEmpty ? offer.originStationID : offer.originStationName
    route +=
      " → "
      + (offer.destinationStationID.isEmpty
        ? "any station" : (offer.destinationStationName.isEmpty ? offer.destinationStationID : offer.destinationStationName))
    if !offer.line.isEmpty { route += " on the \(offer.line)" }
    print("  \(offer.discountPercent)% off: \(offer.title) (\(route), until \(date(offer.validUntil)))  [\(offer.offerID)]")
    if !offer.conditions.isEmpty { print("    \(offer.conditions)") }
  }

  static func category(_ category: Binario_GeoOffers_V1_PlaceCategory) -> String {
    String(describing: category)
  }
}

extension Binario_GeoOffers_V1_PlaceCategory {
  /// From its name as the CLI prints it: `museum`, `church`, ...
  init?(name: String) {
    let all: [Binario_GeoOffers_V1_PlaceCategory] = [.monument, .museum, .church, .park, .theatre, .viewpoint, .neighbourhood, .other]
    guard let found = all.first(where: { String(describing: $0) == name.lowercased() }) else { return nil }
    self = found
  }
}
