import ArgumentParser
import BinarioServiceKit
import DispatchService
import Foundation

/// Dispatch's own settings, beside ServiceKit's common ones and the peers' addresses, each
/// declared once: a flag, a `BINARIO_*` variable or a key of the config file (flags win, then
/// variables, then the file).
extension Setting {
  static let zones = Setting(
    "zones",
    help: "The city's taxi zones (JSON polygons; the repository's Services/Dispatch/DemoData/zones.json is Milan in nine).",
    valueName: "file"
  )

  static let addresses = Setting(
    "addresses",
    help: "The address gazetteer a request's street address is looked up in (JSON; the demo's is Services/Dispatch/DemoData/addresses.json).",
    valueName: "file"
  )

  static let tariff = Setting(
    "tariff",
    help:
      "Fares and the cancellation fee (JSON: currency, baseFareMinor, perKilometreMinor, detourFactor, cancellationFeeMinor, freeCancellationSeconds); default EUR 3.50 + 1.20/km, fee 5.00 after 30 s.",
    valueName: "file"
  )

  static let offerTimeout = Setting(
    "offerTimeout",
    help: "How long (seconds) a driver has to answer an offer; default 20.",
    valueName: "seconds"
  )

  static let delayGrace = Setting(
    "delayGrace",
    help: "How long (minutes) past its estimate a taxi that has not arrived is late; default 5.",
    valueName: "minutes"
  )

  static let missedOffersAlert = Setting(
    "missedOffersAlert",
    help: "Offers let expire in a row before a taxi is made unavailable and the admins alerted; default 3.",
    valueName: "count"
  )

  static let positionSilence = Setting(
    "positionSilence",
    help: "How long (minutes) a taxi on a ride may go without reporting its position before the admins are alerted; default 5.",
    valueName: "minutes"
  )

  static let reservationLead = Setting(
    "reservationLead",
    help: "How far ahead (minutes) a reservation must be made; default 120.",
    valueName: "minutes"
  )

  static let reservationEditCutoff = Setting(
    "reservationEditCutoff",
    help: "Until how long (minutes) before its meeting time a reservation may be changed; default 30.",
    valueName: "minutes"
  )

  static let sharingWindow = Setting(
    "sharingWindow",
    help: "How far apart (minutes) the meeting times of shared reservations matched together may be; default 15.",
    valueName: "minutes"
  )

  static let searchLimit = Setting(
    "searchLimit",
    help:
      "How long (minutes) a request keeps asking the taxis in reach, round after round, before it ends with no taxi (a reservation's ride: as long after its meeting time); default 10.",
    valueName: "minutes"
  )

  static let searchRoundPause = Setting(
    "searchRoundPause",
    help: "How long (seconds) a request every taxi in reach declined waits before asking again, one ring of zones wider; default 30.",
    valueName: "seconds"
  )

  static let noShowWait = Setting(
    "noShowWait",
    help: "How long (minutes) a driver waits at the pickup before they may mark the passenger absent (the fee applies); default 5.",
    valueName: "minutes"
  )

  static let positionFilter = Setting(
    "positionFilter",
    help:
      "How taxis' position fixes are filtered (JSON: worstAccuracyMetres, fastestKmh, zoneHysteresisMetres); default 100 m, 150 km/h, 40 m.",
    valueName: "file"
  )

  static let alertEmails = Setting(
    "alertEmails",
    help:
      "The admins alerted when a request finds no taxi, a driver stops answering or a taxi on a ride goes silent (comma-separated account emails).",
    valueName: "emails"
  )

  static let dispatchZone = Setting(
    "dispatchZone",
    help: "The time zone of the clock times in notifications; default Europe/Rome.",
    valueName: "zone"
  )
}

/// The flags of the settings above; ``given`` pairs each with its value.
struct DispatchOptions: ParsableArguments {
  @Option(name: .customLong(Setting.zones.flagName), help: Setting.zones.argumentHelp)
  var zones: String?

  @Option(name: .customLong(Setting.addresses.flagName), help: Setting.addresses.argumentHelp)
  var addresses: String?

  @Option(name: .customLong(Setting.tariff.flagName), help: Setting.tariff.argumentHelp)
  var tariff: String?

  @Option(name: .customLong(Setting.offerTimeout.flagName), help: Setting.offerTimeout.argumentHelp)
  var offerTimeout: String?

  @Option(name: .customLong(Setting.delayGrace.flagName), help: Setting.delayGrace.argumentHelp)
  var delayGrace: String?

  @Option(name: .customLong(Setting.missedOffersAlert.flagName), help: Setting.missedOffersAlert.argumentHelp)
  var missedOffersAlert: String?

  @Option(name: .customLong(Setting.positionSilence.flagName), help: Setting.positionSilence.argumentHelp)
  var positionSilence: String?

  @Option(name: .customLong(Setting.reservationLead.flagName), help: Setting.reservationLead.argumentHelp)
  var reservationLead: String?

  @Option(name: .customLong(Setting.reservationEditCutoff.flagName), help: Setting.reservationEditCutoff.argumentHelp)
  var reservationEditCutoff: String?

  @Option(name: .customLong(Setting.sharingWindow.flagName), help: Setting.sharingWindow.argumentHelp)
  var sharingWindow: String?

  @Option(name: .customLong(Setting.searchLimit.flagName), help: Setting.searchLimit.argumentHelp)
  var searchLimit: String?

  @Option(name: .customLong(Setting.searchRoundPause.flagName), help: Setting.searchRoundPause.argumentHelp)
  var searchRoundPause: String?

  @Option(name: .customLong(Setting.noShowWait.flagName), help: Setting.noShowWait.argumentHelp)
  var noShowWait: String?

  @Option(name: .customLong(Setting.positionFilter.flagName), help: Setting.positionFilter.argumentHelp)
  var positionFilter: String?

  @Option(name: .customLong(Setting.alertEmails.flagName), help: Setting.alertEmails.argumentHelp)
  var alertEmails: String?

  @Option(name: .customLong(Setting.dispatchZone.flagName), help: Setting.dispatchZone.argumentHelp)
  var zone: String?

  /// Each setting with what its flag was given.
  var given: [AdditionalSetting] {
    [
      Setting.zones.given(zones),
      Setting.addresses.given(addresses),
      Setting.tariff.given(tariff),
      Setting.offerTimeout.given(offerTimeout),
      Setting.delayGrace.given(delayGrace),
      Setting.missedOffersAlert.given(missedOffersAlert),
      Setting.positionSilence.given(positionSilence),
      Setting.reservationLead.given(reservationLead),
      Setting.reservationEditCutoff.given(reservationEditCutoff),
      Setting.sharingWindow.given(sharingWindow),
      Setting.searchLimit.given(searchLimit),
      Setting.searchRoundPause.given(searchRoundPause),
      Setting.noShowWait.given(noShowWait),
      Setting.positionFilter.given(positionFilter),
      Setting.alertEmails.given(alertEmails),
      Setting.dispatchZone.given(zone),
    ]
  }

  static func zoneMap(_ values: AdditionalSettingValues) throws -> ZoneMap {
    guard let zones = try values.file(.zones, ZoneMap.decode) else {
      throw ConfigurationError(
        setting: Setting.zones.key,
        source: .defaults,
        reason:
          "set \(Setting.zones.flag) (\(Setting.zones.environmentVariable)) to the city's taxi zones, e.g. Services/Dispatch/DemoData/zones.json"
      )
    }
    return zones
  }

  static func gazetteer(_ values: AdditionalSettingValues) throws -> AddressGazetteer {
    try values.file(.addresses, AddressGazetteer.decode) ?? AddressGazetteer(addresses: [:])
  }

  static func settings(_ values: AdditionalSettingValues) throws -> DispatchSettings {
    var settings = DispatchSettings()
    if let value = try values.number(.offerTimeout, in: 0.1 ... 600) { settings.offerTimeout = value }
    if let value = try values.number(.delayGrace, in: 0 ... 120) { settings.delayGrace = value * 60 }
    if let value = try values.integer(.missedOffersAlert, in: 1 ... 100) { settings.missedOffersAlert = value }
    if let value = try values.number(.positionSilence, in: 0.1 ... 600) { settings.positionSilenceAlert = value * 60 }
    if let value = try values.number(.reservationLead, in: 15 ... (60 * 24 * 30)) { settings.reservationLeadTime = value * 60 }
    if let value = try values.number(.reservationEditCutoff, in: 10 ... (60 * 24)) { settings.reservationEditCutoff = value * 60 }
    if let value = try values.number(.sharingWindow, in: 0 ... 240) { settings.sharingWindow = value * 60 }
    if let value = try values.number(.searchLimit, in: 0.5 ... 240) { settings.searchLimit = value * 60 }
    if let value = try values.number(.searchRoundPause, in: 1 ... 600) { settings.searchRoundPause = value }
    if let value = try values.number(.noShowWait, in: 0 ... 60) { settings.noShowWait = value * 60 }
    if let filter = try values.file(.positionFilter, { try JSONDecoder().decode(PositionFilterFile.self, from: $0) }) {
      for (name, value) in [
        ("worstAccuracyMetres", filter.worstAccuracyMetres), ("fastestKmh", filter.fastestKmh),
        ("zoneHysteresisMetres", filter.zoneHysteresisMetres),
      ] where value.map({ !($0 >= 0 && $0.isFinite) }) ?? false {
        throw ConfigurationError(setting: Setting.positionFilter.key, source: .defaults, reason: "\(name) is a distance or speed, 0 or more")
      }
      if let value = filter.worstAccuracyMetres { settings.worstAccuracyMetres = value }
      if let value = filter.fastestKmh { settings.fastestKmh = value }
      if let value = filter.zoneHysteresisMetres { settings.zoneHysteresisMetres = value }
    }
    settings.alertEmails = values.list(.alertEmails)
    if let tariff = try values.file(.tariff, { try JSONDecoder().decode(Tariff.self, from: $0) }) { settings.tariff = tariff }
    settings.zone = try values.timeZone(.dispatchZone)
    return settings
  }
}

/// The `--position-filter` file: each value optional (the default stays).
struct PositionFilterFile: Decodable {
  var worstAccuracyMetres: Double?
  var fastestKmh: Double?
  var zoneHysteresisMetres: Double?
}
