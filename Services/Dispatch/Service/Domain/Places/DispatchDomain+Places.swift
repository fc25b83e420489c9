import BinarioDomain
import BinarioPayments
import Foundation

/// A passenger's places: the addresses of their recent rides and the places they saved by name.
extension DispatchDomain {
  /// Addresses of the passenger's recent rides, newest first (at most 10).
  public func recentAddresses(passengerUserID: String) async throws -> [RidePlace] {
    try await store.read { tx in try tx.recentAddresses(passengerUserID: passengerUserID, limit: 10) }
  }

  public func savePlace(userID: String, name rawName: String, position: GeoPoint) async throws -> SavedPlace {
    var check = InputValidation()
    let name = check.requiredText(rawName.lowercased(), field: "place.name", what: "a name", maxLength: 40)
    _ = check.position(latitude: position.latitude, longitude: position.longitude, field: "place.position")
    try check.finish()
    let place = SavedPlace(name: name, position: position)
    try await store.savePlace(userID: userID, place)
    return place
  }

  public func savedPlaces(userID: String) async throws -> [SavedPlace] {
    try await store.savedPlaces(userID: userID)
  }

  public func deleteSavedPlace(userID: String, name: String) async throws {
    guard try await store.deleteSavedPlace(userID: userID, name: name.lowercased()) else {
      throw ServiceError.notFound("no saved place \(name)")
    }
  }
}
