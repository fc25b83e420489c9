import ArgumentParser
import Foundation
import GeoOffersService

/// Geo-offers' own settings, beside ServiceKit's common ones and the peers' addresses. Each is a
/// flag, or else a `BINARIO_*` environment variable (flags win).
struct GeoOffersOptions: ParsableArguments {
  @Option(
    name: .customLong("demo-data"),
    help: ArgumentHelp(
      "Shops, deals, places and route offers (JSON) loaded at first start, while the service has none of its own (the repository's Services/GeoOffers/DemoData/offers.json). (BINARIO_DEMO_DATA)",
      valueName: "file"))
  var demoData: String?

  @Option(
    name: .customLong("deal-radius"),
    help: ArgumentHelp("How near (metres) a reported position a deal is offered; default 300. (BINARIO_DEAL_RADIUS)", valueName: "metres"))
  var dealRadius: Double?

  @Option(
    name: .customLong("deal-repeat-after"),
    help: ArgumentHelp(
      "How long (hours) before a deal offered to someone may be offered to them again; default 24. (BINARIO_DEAL_REPEAT_AFTER)",
      valueName: "hours"))
  var dealRepeatAfter: Double?

  @Option(
    name: .customLong("station-radius"),
    help: ArgumentHelp("How near (metres) a station a position is at it, for a welcome; default 200. (BINARIO_STATION_RADIUS)", valueName: "metres"))
  var stationRadius: Double?

  @Option(
    name: .customLong("places-radius"),
    help: ArgumentHelp("How near (metres) places to visit are suggested; default 1000. (BINARIO_PLACES_RADIUS)", valueName: "metres"))
  var placesRadius: Double?

  @Option(
    name: .customLong("geo-offers-zone"),
    help: ArgumentHelp("The time zone of a welcome's times; default Europe/Rome. (BINARIO_GEO_OFFERS_ZONE)", valueName: "zone"))
  var zone: String?

  func demoDataFile(environment: [String: String]) throws -> (path: String, data: Data)? {
    guard let path = demoData ?? environment["BINARIO_DEMO_DATA"], !path.isEmpty else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("demo-data \(path) cannot be read") }
    return (path, data)
  }

  func settings(environment: [String: String]) throws -> GeoOffersSettings {
    var settings = GeoOffersSettings()
    func metres(_ flag: Double?, _ variable: String, _ name: String, range: ClosedRange<Double>) throws -> Double? {
      guard let value = try flag ?? environment[variable].map({ text -> Double in
        guard let number = Double(text) else { throw ValidationError("\(name) must be a number, not \(text)") }
        return number
      }) else { return nil }
      guard value.isFinite, range.contains(value) else {
        throw ValidationError("\(name) must be \(Int(range.lowerBound)) to \(Int(range.upperBound))")
      }
      return value
    }
    if let value = try metres(dealRadius, "BINARIO_DEAL_RADIUS", "deal-radius", range: 1...50_000) {
      settings.dealRadiusMetres = value
    }
    if let hours = try metres(dealRepeatAfter, "BINARIO_DEAL_REPEAT_AFTER", "deal-repeat-after", range: 0...(24 * 365)) {
      settings.noRepeatPeriod = hours * 3600
    }
    if let value = try metres(stationRadius, "BINARIO_STATION_RADIUS", "station-radius", range: 1...5_000) {
      settings.stationRadiusMetres = value
    }
    if let value = try metres(placesRadius, "BINARIO_PLACES_RADIUS", "places-radius", range: 1...50_000) {
      settings.placesRadiusMetres = value
    }
    let zoneName = zone ?? environment["BINARIO_GEO_OFFERS_ZONE"] ?? "Europe/Rome"
    guard let timeZone = TimeZone(identifier: zoneName) else {
      throw ValidationError("geo-offers-zone must be a time zone such as Europe/Rome, not \(zoneName)")
    }
    settings.zone = timeZone
    return settings
  }
}
