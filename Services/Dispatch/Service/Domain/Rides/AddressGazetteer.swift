import BinarioDomain
import Foundation

/// The city's street addresses with their positions, loaded as data (the demo ships
/// `DemoData/addresses.json`). Lookups ignore case, accents, punctuation and extra spaces, and a
/// trailing city name ("Piazza del Duomo 1, Milano").
public struct AddressGazetteer: Sendable {
  struct Entry: Decodable {
    var address: String
    var latitude: Double
    var longitude: Double
  }

  struct File: Decodable {
    var city: String?
    var addresses: [Entry]
  }

  let positions: [String: GeoPoint]
  let city: String

  public init(addresses: [String: GeoPoint], city: String = "") {
    self.city = Self.normalized(city)
    var positions: [String: GeoPoint] = [:]
    for (address, point) in addresses { positions[Self.normalized(address)] = point }
    self.positions = positions
  }

  /// Reads `{"city": "Milano", "addresses": [{"address", "latitude", "longitude"}, ...]}`.
  public static func decode(_ data: Data) throws -> AddressGazetteer {
    let file = try JSONDecoder().decode(File.self, from: data)
    var check = InputValidation()
    for (index, entry) in file.addresses.enumerated() {
      _ = check.position(latitude: entry.latitude, longitude: entry.longitude, field: "addresses[\(index)]")
    }
    try check.finish()
    return AddressGazetteer(
      addresses: Dictionary(
        file.addresses.map { ($0.address, GeoPoint(latitude: $0.latitude, longitude: $0.longitude)) },
        uniquingKeysWith: { first, _ in first }
      ),
      city: file.city ?? ""
    )
  }

  public var count: Int { positions.count }

  public func position(of address: String) -> GeoPoint? {
    var key = Self.normalized(address)
    if let found = positions[key] { return found }
    if !city.isEmpty, key.hasSuffix(" " + city) {
      key = String(key.dropLast(city.count + 1))
      return positions[key]
    }
    return nil
  }

  /// Lower case, no accents, punctuation as spaces, single spaces.
  static func normalized(_ text: String) -> String {
    let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    let spaced = String(folded.map { $0.isLetter || $0.isNumber ? $0 : " " })
    return spaced.split(separator: " ").joined(separator: " ")
  }
}

/// The default ``Geocoder``: the passenger's saved places by name, then the gazetteer.
public struct SavedPlacesAndGazetteer: Geocoder {
  let store: DispatchStore
  let gazetteer: AddressGazetteer

  public init(store: DispatchStore, gazetteer: AddressGazetteer) {
    self.store = store
    self.gazetteer = gazetteer
  }

  public func position(of address: String, userID: String) async throws -> GeoPoint? {
    let name = address.trimmingCharacters(in: .whitespaces).lowercased()
    if let saved = try await store.savedPlaces(userID: userID).first(where: { $0.name == name }) { return saved.position }
    return gazetteer.position(of: address)
  }
}
