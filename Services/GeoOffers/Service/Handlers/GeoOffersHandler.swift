import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of geo-offers: translates `binario.geo_offers.v1.GeoOffers` messages to
/// ``GeoOffersDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/geoOffers``.
public struct GeoOffersHandler: Binario_GeoOffers_V1_GeoOffers.SimpleServiceProtocol {
  let domain: GeoOffersDomain

  public init(domain: GeoOffersDomain) {
    self.domain = domain
  }

  // MARK: - Public

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

  // MARK: - Signed in

  public func reportLocation(
    request: Binario_GeoOffers_V1_ReportLocationRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ReportLocationResponse {
    let caller = try CallerIdentity.signedIn()
    let report = try await domain.report(
      userID: caller.userID,
      latitude: request.latitude,
      longitude: request.longitude,
      accuracyMetres: request.accuracyMetres,
      reportedAt: request.hasReportedAt ? request.reportedAt.date : nil
    )
    return .init(report)
  }

  public func getMyLocation(
    request: Binario_GeoOffers_V1_GetMyLocationRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_GetMyLocationResponse {
    let location = try await domain.location(userID: try CallerIdentity.signedIn().userID)
    return .with { $0.location = .init(location) }
  }

  public func forgetMyLocation(
    request: Binario_GeoOffers_V1_ForgetMyLocationRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ForgetMyLocationResponse {
    try await domain.forgetLocation(userID: try CallerIdentity.signedIn().userID)
    return .init()
  }

  // MARK: - Admin: shops

  public func createShop(
    request: Binario_GeoOffers_V1_CreateShopRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreateShopResponse {
    let result = try await domain.createShop(request.shop.domain)
    return .with { $0.shop = .init(result) }
  }

  public func updateShop(
    request: Binario_GeoOffers_V1_UpdateShopRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_UpdateShopResponse {
    let result = try await domain.updateShop(request.shop.domain)
    return .with { $0.shop = .init(result) }
  }

  public func deleteShop(
    request: Binario_GeoOffers_V1_DeleteShopRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_DeleteShopResponse {
    try await domain.deleteShop(id: request.shopID)
    return .init()
  }

  public func listShops(
    request: Binario_GeoOffers_V1_ListShopsRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ListShopsResponse {
    let page = try await domain.shops(pageSize: Int(clamping: request.pageSize), pageToken: request.pageToken)
    return .with {
      $0.shops = page.items.map(Binario_GeoOffers_V1_Shop.init)
      $0.nextPageToken = page.nextPageToken
    }
  }

  // MARK: - Admin: deals

  public func createDeal(
    request: Binario_GeoOffers_V1_CreateDealRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreateDealResponse {
    let result = try await domain.createDeal(request.deal.draft)
    return .with { $0.deal = .init(result) }
  }

  public func updateDeal(
    request: Binario_GeoOffers_V1_UpdateDealRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_UpdateDealResponse {
    let result = try await domain.updateDeal(id: request.deal.dealID, request.deal.draft)
    return .with { $0.deal = .init(result) }
  }

  public func deleteDeal(
    request: Binario_GeoOffers_V1_DeleteDealRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_DeleteDealResponse {
    try await domain.deleteDeal(id: request.dealID)
    return .init()
  }

  public func listDeals(
    request: Binario_GeoOffers_V1_ListDealsRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ListDealsResponse {
    let page = try await domain.deals(
      shopID: request.shopID,
      pageSize: Int(clamping: request.pageSize),
      pageToken: request.pageToken
    )
    return .with {
      $0.deals = page.items.map(Binario_GeoOffers_V1_Deal.init)
      $0.nextPageToken = page.nextPageToken
    }
  }

  // MARK: - Admin: places

  public func createPlace(
    request: Binario_GeoOffers_V1_CreatePlaceRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreatePlaceResponse {
    let result = try await domain.createPlace(request.place.domain)
    return .with { $0.place = .init(result) }
  }

  public func updatePlace(
    request: Binario_GeoOffers_V1_UpdatePlaceRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_UpdatePlaceResponse {
    let result = try await domain.updatePlace(request.place.domain)
    return .with { $0.place = .init(result) }
  }

  public func deletePlace(
    request: Binario_GeoOffers_V1_DeletePlaceRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_DeletePlaceResponse {
    try await domain.deletePlace(id: request.placeID)
    return .init()
  }

  public func listPlaces(
    request: Binario_GeoOffers_V1_ListPlacesRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_ListPlacesResponse {
    let page = try await domain.places(pageSize: Int(clamping: request.pageSize), pageToken: request.pageToken)
    return .with {
      $0.places = page.items.map(Binario_GeoOffers_V1_Place.init)
      $0.nextPageToken = page.nextPageToken
    }
  }

  // MARK: - Admin: route offers

  public func createRouteOffer(
    request: Binario_GeoOffers_V1_CreateRouteOfferRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreateRouteOfferResponse {
    let result = try await domain.createRouteOffer(request.offer.domain(now: domain.clock.now()))
    return .with { $0.offer = .init(result) }
  }

  public func updateRouteOffer(
    request: Binario_GeoOffers_V1_UpdateRouteOfferRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_UpdateRouteOfferResponse {
    let result = try await domain.updateRouteOffer(request.offer.domain(now: domain.clock.now()))
    return .with { $0.offer = .init(result) }
  }

  public func deleteRouteOffer(
    request: Binario_GeoOffers_V1_DeleteRouteOfferRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_DeleteRouteOfferResponse {
    try await domain.deleteRouteOffer(id: request.offerID)
    return .init()
  }

  // MARK: - Internal

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
