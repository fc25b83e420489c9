import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension GeoOffersHandler {
  public func listNearestStations(
    request: Binario_GeoOffers_V1_ListNearestStationsRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ListNearestStationsResponse {
    let stations = try await domain.nearestStations(
      latitude: request.latitude,
      longitude: request.longitude,
      count: Int(clamping: request.count)
    )
    return .with { $0.stations = stations.map(Binario_GeoOffers_V1_NearestStation.init) }
  }

  public func listNearbyDeals(
    request: Binario_GeoOffers_V1_ListNearbyDealsRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ListNearbyDealsResponse {
    let deals = try await domain.nearbyDeals(latitude: request.latitude, longitude: request.longitude, radius: request.radiusMetres)
    return .with { $0.deals = deals.map(Binario_GeoOffers_V1_NearbyDeal.init) }
  }

  public func listNearbyPlaces(
    request: Binario_GeoOffers_V1_ListNearbyPlacesRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ListNearbyPlacesResponse {
    let places = try await domain.nearbyPlaces(
      latitude: request.latitude,
      longitude: request.longitude,
      radius: request.radiusMetres,
      category: request.category == .unspecified ? nil : Place.Category(request.category)
    )
    return .with { $0.places = places.map(Binario_GeoOffers_V1_NearbyPlace.init) }
  }

  public func listRouteOffers(
    request: Binario_GeoOffers_V1_ListRouteOffersRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ListRouteOffersResponse {
    let offers = try await domain.routeOffers(stationID: request.stationID, includeInactive: request.includeInactive)
    return .with { $0.offers = offers.map(Binario_GeoOffers_V1_RouteOffer.init) }
  }

  public func findRouteOffer(
    request: Binario_GeoOffers_V1_FindRouteOfferRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_FindRouteOfferResponse {
    let offer = try await domain.bestRouteOffer(
      from: request.fromStationID,
      to: request.toStationID,
      line: request.line,
      at: request.hasAt ? request.at.date : nil
    )
    return .with {
      $0.found = offer != nil
      if let offer { $0.offer = .init(offer) }
    }
  }
}
