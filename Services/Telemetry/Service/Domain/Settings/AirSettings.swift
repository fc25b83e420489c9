import BinarioDomain
import Foundation

/// A person's air-quality settings, as MOQA's settings screen keeps them: the measure the map and
/// the chart open on, and the reference stations they picked, which the filter offers first.
public struct AirSettings: Sendable, Hashable {
  /// `nil`: the app's default (PM2.5).
  public var defaultMeasure: Measure?
  /// Station ids (the portal's `idstazione`), in the order picked.
  public var stationIDs: [String]

  public init(defaultMeasure: Measure? = nil, stationIDs: [String] = []) {
    self.defaultMeasure = defaultMeasure
    self.stationIDs = stationIDs
  }
}

/// Reading and saving each person's ``AirSettings``. Erased with the account (docs/data-map.md).
public struct AirSettingsBook: Sendable {
  let store: TelemetryStore
  /// The most stations one person may pick.
  public static let maximumStations = 50

  public init(store: TelemetryStore) {
    self.store = store
  }

  public func settings(userID: String) async throws -> AirSettings {
    try await store.airSettings(userID: userID)
  }

  /// Saves what is given (a `nil` field keeps what was saved). Each station must be one the
  /// reference data knows; a station picked twice counts once.
  public func save(userID: String, defaultMeasure: Measure??, stationIDs: [String]?) async throws -> AirSettings {
    var settings = try await store.airSettings(userID: userID)
    if let defaultMeasure { settings.defaultMeasure = defaultMeasure }
    if let stationIDs {
      var seen = Set<String>()
      let picked = stationIDs.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && seen.insert($0).inserted }
      guard picked.count <= Self.maximumStations else {
        throw ServiceError.invalid("station_ids", "pick at most \(Self.maximumStations) stations")
      }
      let known = try await store.knownStationIDs(Set(picked))
      if let unknown = picked.first(where: { !known.contains($0) }) {
        throw ServiceError.invalid("station_ids", "no reference station \(unknown)")
      }
      settings.stationIDs = picked
    }
    try await store.saveAirSettings(userID: userID, settings)
    return settings
  }
}
