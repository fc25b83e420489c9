import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension GeoOffersHandler {
  public func createShop(
    request: Binario_GeoOffers_V1_CreateShopRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreateShopResponse {
    let result = try await domain.createShop(request.shop.domain, key: try Self.key(request.idempotencyKey))
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

  public func createDeal(
    request: Binario_GeoOffers_V1_CreateDealRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreateDealResponse {
    let result = try await domain.createDeal(request.deal.draft, key: try Self.key(request.idempotencyKey))
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

  public func createPlace(
    request: Binario_GeoOffers_V1_CreatePlaceRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreatePlaceResponse {
    let result = try await domain.createPlace(request.place.domain, key: try Self.key(request.idempotencyKey))
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

  public func createRouteOffer(
    request: Binario_GeoOffers_V1_CreateRouteOfferRequest,
    context: ServerContext
  ) async throws -> Binario_GeoOffers_V1_CreateRouteOfferResponse {
    let result = try await domain.createRouteOffer(request.offer.domain(now: domain.clock.now()), key: try Self.key(request.idempotencyKey))
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
}

extension GeoOffersHandler {
  /// An admin's idempotency key on a creating write.
  static func key(_ key: String) throws -> IdempotencyKey? {
    try IdempotencyKey(caller: try CallerIdentity.signedIn().userID, key: key)
  }
}
