import ArgumentParser
import BinarioServiceKit
import DispatchService
import Foundation

/// Dispatch's own settings, beside ServiceKit's common ones and the peers' addresses. Each is a
/// flag, or else a `BINARIO_*` environment variable (flags win).
struct DispatchOptions: ParsableArguments {
  @Option(
    name: .customLong("zones"),
    help: ArgumentHelp(
      "The city's taxi zones (JSON polygons; the repository's Services/Dispatch/DemoData/zones.json is Milan in nine). (BINARIO_ZONES)",
      valueName: "file"
    )
  )
  var zones: String?

  @Option(
    name: .customLong("addresses"),
    help: ArgumentHelp(
      "The address gazetteer a request's street address is looked up in (JSON; the demo's is Services/Dispatch/DemoData/addresses.json). (BINARIO_ADDRESSES)",
      valueName: "file"
    )
  )
  var addresses: String?

  @Option(
    name: .customLong("tariff"),
    help: ArgumentHelp(
      "Fares and the cancellation fee (JSON: currency, baseFareMinor, perKilometreMinor, detourFactor, cancellationFeeMinor, freeCancellationSeconds); default EUR 3.50 + 1.20/km, fee 5.00 after 30 s. (BINARIO_TARIFF)",
      valueName: "file"
    )
  )
  var tariff: String?

  @Option(
    name: .customLong("offer-timeout"),
    help: ArgumentHelp("How long (seconds) a driver has to answer an offer; default 20. (BINARIO_OFFER_TIMEOUT)", valueName: "seconds")
  )
  var offerTimeout: Double?

  @Option(
    name: .customLong("delay-grace"),
    help: ArgumentHelp(
      "How long (minutes) past its estimate a taxi that has not arrived is late; default 5. (BINARIO_DELAY_GRACE)",
      valueName: "minutes"
    )
  )
  var delayGrace: Double?

  @Option(
    name: .customLong("missed-offers-alert"),
    help: ArgumentHelp(
      "Offers let expire in a row before a taxi is made unavailable and the admins alerted; default 3. (BINARIO_MISSED_OFFERS_ALERT)",
      valueName: "count"
    )
  )
  var missedOffersAlert: Int?

  @Option(
    name: .customLong("position-silence"),
    help: ArgumentHelp(
      "How long (minutes) a taxi on a ride may go without reporting its position before the admins are alerted; default 5. (BINARIO_POSITION_SILENCE)",
      valueName: "minutes"
    )
  )
  var positionSilence: Double?

  @Option(
    name: .customLong("reservation-lead"),
    help: ArgumentHelp("How far ahead (minutes) a reservation must be made; default 120. (BINARIO_RESERVATION_LEAD)", valueName: "minutes")
  )
  var reservationLead: Double?

  @Option(
    name: .customLong("reservation-edit-cutoff"),
    help: ArgumentHelp(
      "Until how long (minutes) before its meeting time a reservation may be changed; default 30. (BINARIO_RESERVATION_EDIT_CUTOFF)",
      valueName: "minutes"
    )
  )
  var reservationEditCutoff: Double?

  @Option(
    name: .customLong("sharing-window"),
    help: ArgumentHelp(
      "How far apart (minutes) the meeting times of shared reservations matched together may be; default 15. (BINARIO_SHARING_WINDOW)",
      valueName: "minutes"
    )
  )
  var sharingWindow: Double?

  @Option(
    name: .customLong("alert-emails"),
    help: ArgumentHelp(
      "The admins alerted when a request finds no taxi, a driver stops answering or a taxi on a ride goes silent (comma-separated account emails). (BINARIO_ALERT_EMAILS)",
      valueName: "emails"
    )
  )
  var alertEmails: String?

  @Option(
    name: .customLong("dispatch-zone"),
    help: ArgumentHelp("The time zone of the clock times in notifications; default Europe/Rome. (BINARIO_DISPATCH_ZONE)", valueName: "zone")
  )
  var zone: String?

  func zoneMap(_ settings: OwnSettingReader) throws -> ZoneMap {
    guard let file = try settings.file(zones, "BINARIO_ZONES", name: "zones") else {
      throw ValidationError("set --zones (BINARIO_ZONES) to the city's taxi zones, e.g. Services/Dispatch/DemoData/zones.json")
    }
    do {
      return try ZoneMap.decode(file.data)
    } catch {
      throw ValidationError("zones \(file.path): \(error)")
    }
  }

  func gazetteer(_ settings: OwnSettingReader) throws -> AddressGazetteer {
    guard let file = try settings.file(addresses, "BINARIO_ADDRESSES", name: "addresses") else { return AddressGazetteer(addresses: [:]) }
    do {
      return try AddressGazetteer.decode(file.data)
    } catch {
      throw ValidationError("addresses \(file.path): \(error)")
    }
  }

  func settings(_ reader: OwnSettingReader) throws -> DispatchSettings {
    var settings = DispatchSettings()
    if let value = try reader.number(offerTimeout, "BINARIO_OFFER_TIMEOUT", name: "offer-timeout", in: 0.1 ... 600) {
      settings.offerTimeout = value
    }
    if let value = try reader.number(delayGrace, "BINARIO_DELAY_GRACE", name: "delay-grace", in: 0 ... 120) { settings.delayGrace = value * 60 }
    if let value = try reader.integer(missedOffersAlert, "BINARIO_MISSED_OFFERS_ALERT", name: "missed-offers-alert", in: 1 ... 100) {
      settings.missedOffersAlert = value
    }
    if let value = try reader.number(positionSilence, "BINARIO_POSITION_SILENCE", name: "position-silence", in: 0.1 ... 600) {
      settings.positionSilenceAlert = value * 60
    }
    if let value = try reader.number(reservationLead, "BINARIO_RESERVATION_LEAD", name: "reservation-lead", in: 15 ... (60 * 24 * 30)) {
      settings.reservationLeadTime = value * 60
    }
    if let value = try reader.number(
      reservationEditCutoff,
      "BINARIO_RESERVATION_EDIT_CUTOFF",
      name: "reservation-edit-cutoff",
      in: 10 ... (60 * 24)
    ) {
      settings.reservationEditCutoff = value * 60
    }
    if let value = try reader.number(sharingWindow, "BINARIO_SHARING_WINDOW", name: "sharing-window", in: 0 ... 240) {
      settings.sharingWindow = value * 60
    }
    settings.alertEmails = reader.list(alertEmails, "BINARIO_ALERT_EMAILS")
    if let file = try reader.file(tariff, "BINARIO_TARIFF", name: "tariff") {
      do {
        settings.tariff = try JSONDecoder().decode(Tariff.self, from: file.data)
      } catch {
        throw ValidationError("tariff \(file.path): \(error)")
      }
    }
    settings.zone = try reader.timeZone(zone, "BINARIO_DISPATCH_ZONE", name: "dispatch-zone")
    return settings
  }
}
