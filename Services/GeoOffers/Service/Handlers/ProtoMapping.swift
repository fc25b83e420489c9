import BinarioDomain
import BinarioProto
import Foundation
import SwiftProtobuf

// Domain values as proto messages, and back. Instants are Timestamps.

extension Binario_GeoOffers_V1_Station {
  init(_ station: GeoStation) {
    self.init()
    self.stationID = station.id
    self.name = station.name
    self.latitude = station.position.latitude
    self.longitude = station.position.longitude
  }
}

extension Binario_GeoOffers_V1_NearestStation {
  init(_ nearest: NearestStation) {
    self.init()
    self.station = .init(nearest.station)
    self.distanceMetres = nearest.distanceMetres.rounded()
    self.walkingMinutes = Int32(nearest.walkingMinutes)
    self.directionsURL = nearest.directionsURL
  }
}

extension Binario_GeoOffers_V1_Shop {
  init(_ shop: Shop) {
    self.init()
    self.shopID = shop.id
    self.name = shop.name
    self.description_p = shop.description
    self.latitude = shop.position.latitude
    self.longitude = shop.position.longitude
    self.stationID = shop.stationID
  }

  var domain: Shop {
    Shop(
      id: shopID,
      name: name,
      description: description_p,
      position: GeoPoint(latitude: latitude, longitude: longitude),
      stationID: stationID
    )
  }
}

extension Binario_GeoOffers_V1_Deal {
  init(_ deal: Deal) {
    self.init()
    self.dealID = deal.id
    self.shopID = deal.shopID
    self.shopName = deal.shopName
    self.description_p = deal.description
    self.discountPercent = Int32(deal.discountPercent)
    self.latitude = deal.position.latitude
    self.longitude = deal.position.longitude
    self.validFrom = Google_Protobuf_Timestamp(date: deal.validFrom)
    self.validUntil = Google_Protobuf_Timestamp(date: deal.validUntil)
    self.stationID = deal.stationID
  }

  var draft: DealDraft {
    DealDraft(
      shopID: shopID,
      description: description_p,
      discountPercent: Int(discountPercent),
      validFrom: hasValidFrom ? validFrom.date : nil,
      validUntil: hasValidUntil ? validUntil.date : nil
    )
  }
}

extension Binario_GeoOffers_V1_NearbyDeal {
  init(_ nearby: Nearby<Deal>) {
    self.init()
    self.deal = .init(nearby.item)
    self.distanceMetres = nearby.distanceMetres.rounded()
  }
}

extension Place.Category {
  init(_ proto: Binario_GeoOffers_V1_PlaceCategory) {
    switch proto {
    case .monument: self = .monument
    case .museum: self = .museum
    case .church: self = .church
    case .park: self = .park
    case .theatre: self = .theatre
    case .viewpoint: self = .viewpoint
    case .neighbourhood: self = .neighbourhood
    default: self = .other
    }
  }

  var proto: Binario_GeoOffers_V1_PlaceCategory {
    switch self {
    case .monument: return .monument
    case .museum: return .museum
    case .church: return .church
    case .park: return .park
    case .theatre: return .theatre
    case .viewpoint: return .viewpoint
    case .neighbourhood: return .neighbourhood
    case .other: return .other
    }
  }
}

extension Binario_GeoOffers_V1_Place {
  init(_ place: Place) {
    self.init()
    self.placeID = place.id
    self.name = place.name
    self.description_p = place.description
    self.category = place.category.proto
    self.latitude = place.position.latitude
    self.longitude = place.position.longitude
  }

  var domain: Place {
    Place(
      id: placeID,
      name: name,
      description: description_p,
      category: .init(category),
      position: GeoPoint(latitude: latitude, longitude: longitude)
    )
  }
}

extension Binario_GeoOffers_V1_NearbyPlace {
  init(_ nearby: Nearby<Place>) {
    self.init()
    self.place = .init(nearby.item)
    self.distanceMetres = nearby.distanceMetres.rounded()
  }
}

extension Binario_GeoOffers_V1_RouteOffer {
  init(_ offer: RouteOffer) {
    self.init()
    self.offerID = offer.id
    self.originStationID = offer.originStationID
    self.originStationName = offer.originStationName
    self.destinationStationID = offer.destinationStationID
    self.destinationStationName = offer.destinationStationName
    self.line = offer.line
    self.title = offer.title
    self.discountPercent = Int32(offer.discountPercent)
    self.conditions = offer.conditions
    self.validFrom = Google_Protobuf_Timestamp(date: offer.validFrom)
    self.validUntil = Google_Protobuf_Timestamp(date: offer.validUntil)
  }

  /// The offer an admin wrote; an unset start is `now`, an unset end 30 days after the start.
  func domain(now: Date) -> RouteOffer {
    let from = hasValidFrom ? validFrom.date : now
    return RouteOffer(
      id: offerID,
      originStationID: originStationID,
      destinationStationID: destinationStationID,
      line: line,
      title: title,
      discountPercent: Int(discountPercent),
      conditions: conditions,
      validFrom: from,
      validUntil: hasValidUntil ? validUntil.date : from.addingTimeInterval(30 * 86_400)
    )
  }
}

extension Binario_GeoOffers_V1_Location {
  init(_ location: UserLocation) {
    self.init()
    self.latitude = location.position.latitude
    self.longitude = location.position.longitude
    self.accuracyMetres = location.accuracyMetres
    self.reportedAt = Google_Protobuf_Timestamp(date: location.reportedAt)
  }
}

extension Binario_GeoOffers_V1_Welcome {
  init(_ welcome: Welcome) {
    self.init()
    self.ticketID = welcome.ticketID
    self.station = .init(welcome.station)
    self.tripID = welcome.run.tripID
    self.serviceDate = welcome.run.serviceDate
    self.trainNumber = welcome.trainNumber
    self.destinationName = welcome.destinationName
    self.scheduledDeparture = Google_Protobuf_Timestamp(date: welcome.scheduledDeparture)
    self.expectedDeparture = Google_Protobuf_Timestamp(date: welcome.expectedDeparture)
    self.platform = welcome.platform
    self.minutesToDeparture = Int32(welcome.minutesToDeparture)
    self.message = welcome.message.rendered(in: RequestLanguage.current)
    self.placesAtDestination = welcome.placesAtDestination.map(Binario_GeoOffers_V1_NearbyPlace.init)
  }
}

extension Binario_GeoOffers_V1_ReportLocationResponse {
  init(_ report: LocationReport) {
    self.init()
    self.stored = report.stored
    self.deals = report.deals.map(Binario_GeoOffers_V1_NearbyDeal.init)
    if let nearest = report.nearestStation { self.nearestStation = .init(nearest) }
    self.routeOffers = report.routeOffers.map(Binario_GeoOffers_V1_RouteOffer.init)
    self.places = report.places.map(Binario_GeoOffers_V1_NearbyPlace.init)
    if let welcome = report.welcome { self.welcome = .init(welcome) }
  }
}
