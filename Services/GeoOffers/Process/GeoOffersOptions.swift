import ArgumentParser
import BinarioServiceKit
import Foundation
import GeoOffersService

/// Geo-offers' own settings, beside ServiceKit's common ones and the peers' addresses, each
/// declared once: a flag, a `BINARIO_*` variable or a key of the config file (flags win, then
/// variables, then the file).
extension Setting {
  static let demoData = Setting(
    "demoData",
    help:
      "Shops, deals, places and route offers (JSON) loaded at first start, while the service has none of its own (the repository's Services/GeoOffers/DemoData/offers.json).",
    valueName: "file"
  )

  static let dealRadius = Setting(
    "dealRadius",
    help: "How near (metres) a reported position a deal is offered; default 300.",
    valueName: "metres"
  )

  static let dealRepeatAfter = Setting(
    "dealRepeatAfter",
    help: "How long (hours) before a deal offered to someone may be offered to them again; default 24.",
    valueName: "hours"
  )

  static let stationRadius = Setting(
    "stationRadius",
    help: "How near (metres) a station a position is at it, for a welcome; default 200.",
    valueName: "metres"
  )

  static let placesRadius = Setting(
    "placesRadius",
    help: "How near (metres) places to visit are suggested; default 1000.",
    valueName: "metres"
  )

  static let geoOffersZone = Setting(
    "geoOffersZone",
    help: "The time zone of a welcome's times; default Europe/Rome.",
    valueName: "zone"
  )
}

/// The flags of the settings above; ``given`` pairs each with its value.
struct GeoOffersOptions: ParsableArguments {
  @Option(name: .customLong(Setting.demoData.flagName), help: Setting.demoData.argumentHelp)
  var demoData: String?

  @Option(name: .customLong(Setting.dealRadius.flagName), help: Setting.dealRadius.argumentHelp)
  var dealRadius: String?

  @Option(name: .customLong(Setting.dealRepeatAfter.flagName), help: Setting.dealRepeatAfter.argumentHelp)
  var dealRepeatAfter: String?

  @Option(name: .customLong(Setting.stationRadius.flagName), help: Setting.stationRadius.argumentHelp)
  var stationRadius: String?

  @Option(name: .customLong(Setting.placesRadius.flagName), help: Setting.placesRadius.argumentHelp)
  var placesRadius: String?

  @Option(name: .customLong(Setting.geoOffersZone.flagName), help: Setting.geoOffersZone.argumentHelp)
  var zone: String?

  /// Each setting with what its flag was given.
  var given: [AdditionalSetting] {
    [
      Setting.demoData.given(demoData),
      Setting.dealRadius.given(dealRadius),
      Setting.dealRepeatAfter.given(dealRepeatAfter),
      Setting.stationRadius.given(stationRadius),
      Setting.placesRadius.given(placesRadius),
      Setting.geoOffersZone.given(zone),
    ]
  }

  static func demoData(_ values: AdditionalSettingValues) throws -> (path: String, data: Data)? {
    try values.file(.demoData)
  }

  static func settings(_ values: AdditionalSettingValues) throws -> GeoOffersSettings {
    var settings = GeoOffersSettings()
    if let value = try values.number(.dealRadius, in: 1 ... 50_000) { settings.dealRadiusMetres = value }
    if let hours = try values.number(.dealRepeatAfter, in: 0 ... (24 * 365)) { settings.noRepeatPeriod = hours * 3600 }
    if let value = try values.number(.stationRadius, in: 1 ... 5_000) { settings.stationRadiusMetres = value }
    if let value = try values.number(.placesRadius, in: 1 ... 50_000) { settings.placesRadiusMetres = value }
    settings.zone = try values.timeZone(.geoOffersZone)
    return settings
  }
}
