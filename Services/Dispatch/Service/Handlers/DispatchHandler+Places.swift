import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension DispatchHandler {
  public func listRecentAddresses(
    request: Binario_Dispatch_V1_ListRecentAddressesRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListRecentAddressesResponse {
    let values = try await domain.recentAddresses(passengerUserID: try Self.user())
    return .with { $0.places = values.map { Binario_Dispatch_V1_Place($0) } }
  }

  public func savePlace(
    request: Binario_Dispatch_V1_SavePlaceRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_SavePlaceResponse {
    guard request.place.hasPosition else { throw ServiceError.invalid("place.position", "a position is required") }
    let place = try await domain.savePlace(userID: try Self.user(), name: request.place.name, position: request.place.position.point)
    return .with { $0.place = .init(place) }
  }

  public func listSavedPlaces(
    request: Binario_Dispatch_V1_ListSavedPlacesRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListSavedPlacesResponse {
    let values = try await domain.savedPlaces(userID: try Self.user())
    return .with { $0.places = values.map(Binario_Dispatch_V1_SavedPlace.init) }
  }

  public func deleteSavedPlace(
    request: Binario_Dispatch_V1_DeleteSavedPlaceRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_DeleteSavedPlaceResponse {
    try await domain.deleteSavedPlace(userID: try Self.user(), name: request.name)
    return .init()
  }
}
