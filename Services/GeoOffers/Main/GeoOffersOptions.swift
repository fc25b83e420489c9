import ArgumentParser
import BinarioServiceKit
import Foundation
import GeoOffersService

/// Geo-offers' own settings, beside ServiceKit's common ones and the peers' addresses. Each is a
/// flag, or else a `BINARIO_*` environment variable (flags win).
struct GeoOffersOptions: ParsableArguments {
  @Option(
    name: .customLong("demo-data"),
    help: ArgumentHelp(
      "Shops, deals, places and route offers (JSON) loaded at first start, while the service has none of its own (the repository's Services/GeoOffers/DemoData/offers.json). (BINARIO_DEMO_DATA)",
      valueName: "file"
    )
  )
  var demoData: String?

  @Option(
    name: .customLong("deal-radius"),
    help: ArgumentHelp("How near (metres) a reported position a deal is offered; default 300. (BINARIO_DEAL_RADIUS)", valueName: "metres")
  )
  var dealRadius: Double?

  @Option(
    name: .customLong("deal-repeat-after"),
    help: ArgumentHelp(
      "How long (hours) before a deal offered to someone may be offered to them again; default 24. (BINARIO_DEAL_REPEAT_AFTER)",
      valueName: "hours"
    )
  )
  var dealRepeatAfter: Double?

  @Option(
    name: .customLong("station-radius"),
    help: ArgumentHelp("How near (metres) a station a position is at it, for a welcome; default 200. (BINARIO_STATION_RADIUS)", valueName: "metres")
  )
  var stationRadius: Double?

  @Option(
    name: .customLong("places-radius"),
    help: ArgumentHelp("How near (metres) places to visit are suggested; default 1000. (BINARIO_PLACES_RADIUS)", valueName: "metres")
  )
  var placesRadius: Double?

  @Option(
    name: .customLong("geo-offers-zone"),
    help: ArgumentHelp("The time zone of a welcome's times; default Europe/Rome. (BINARIO_GEO_OFFERS_ZONE)", valueName: "zone")
  )
  var zone: String?

  func demoDataFile(_ reader: OwnSettingReader) throws -> (path: String, data: Data)? {
    try reader.file(demoData, "BINARIO_DEMO_DATA", name: "demo-data")
  }

  func settings(_ reader: OwnSettingReader) throws -> GeoOffersSettings {
    var settings = GeoOffersSettings()
    if let value = try reader.number(dealRadius, "BINARIO_DEAL_RADIUS", name: "deal-radius", in: 1 ... 50_000) {
      settings.dealRadiusMetres = value
    }
    if let hours = try reader.number(dealRepeatAfter, "BINARIO_DEAL_REPEAT_AFTER", name: "deal-repeat-after", in: 0 ... (24 * 365)) {
      settings.noRepeatPeriod = hours * 3600
    }
    if let value = try reader.number(stationRadius, "BINARIO_STATION_RADIUS", name: "station-radius", in: 1 ... 5_000) {
      settings.stationRadiusMetres = value
    }
    if let value = try reader.number(placesRadius, "BINARIO_PLACES_RADIUS", name: "places-radius", in: 1 ... 50_000) {
      settings.placesRadiusMetres = value
    }
    settings.zone = try reader.timeZone(zone, "BINARIO_GEO_OFFERS_ZONE", name: "geo-offers-zone")
    return settings
  }
}
