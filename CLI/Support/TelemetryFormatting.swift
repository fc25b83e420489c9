import ArgumentParser
import BinarioProto
import Foundation
import GRPCCore
import SwiftProtobuf

/// A board's measure on the command line, by the name the service's CSV uses (`pm2.5`).
struct MeasureArgument: ExpressibleByArgument, Sendable {
  static let names: [(String, Binario_Telemetry_V1_Measure, String)] = [
    ("temperature", .temperature, "°C"), ("humidity", .humidity, "%"), ("pressure", .pressure, "hPa"), ("altitude", .altitude, "m"),
    ("tvoc", .tvoc, "ppb"), ("eco2", .eco2, "ppm"), ("pm0.5", .pm05, "µg/m³"), ("pm1", .pm1, "µg/m³"), ("pm2.5", .pm25, "µg/m³"),
    ("pm4", .pm4, "µg/m³"), ("pm10", .pm10, "µg/m³"),
  ]
  let proto: Binario_Telemetry_V1_Measure

  init?(argument: String) {
    guard let found = Self.names.first(where: { $0.0 == argument.lowercased() }) else { return nil }
    proto = found.1
  }

  static var allValueStrings: [String] { names.map(\.0) }

  static func name(_ measure: Binario_Telemetry_V1_Measure) -> String {
    names.first { $0.1 == measure }?.0 ?? "?"
  }
}

/// `--from` and `--to`: a day (`2024-01-15`, from its midnight UTC) or an ISO 8601 instant.
struct TimeRangeOptions: ParsableArguments {
  @Option(help: "Start: 2024-01-15 or 2024-01-15T08:00:00Z (default: a day before --to).") var from: String?
  @Option(help: "End, exclusive (default: now).") var to: String?

  static func instant(_ text: String, option: String) throws -> Date {
    if let date = try? Date(text, strategy: .iso8601) { return date }
    if let day = try? Date(text + "T00:00:00Z", strategy: .iso8601) { return day }
    throw ValidationError("\(option): a day (2024-01-15) or an ISO 8601 instant (2024-01-15T08:00:00Z), not \(text)")
  }

  /// Sets the request's `from` and `to` to the options given (a field left unset lets the service
  /// choose: now, a day before).
  func apply<Request>(
    to request: inout Request,
    from fromField: WritableKeyPath<Request, Google_Protobuf_Timestamp>,
    to toField: WritableKeyPath<Request, Google_Protobuf_Timestamp>
  ) throws {
    if let from { request[keyPath: fromField] = Google_Protobuf_Timestamp(date: try Self.instant(from, option: "--from")) }
    if let to { request[keyPath: toField] = Google_Protobuf_Timestamp(date: try Self.instant(to, option: "--to")) }
  }
}

/// `--box south,west,north,east`.
struct BoxArgument: ExpressibleByArgument, Sendable {
  let south: Double, west: Double, north: Double, east: Double

  init?(argument: String) {
    let parts = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 4 else { return nil }
    (south, west, north, east) = (parts[0], parts[1], parts[2], parts[3])
  }
}

/// The device token a board (or this CLI acting as one) uploads with: `--token`, else
/// `--token-file`, else `BINARIO_DEVICE_TOKEN`.
struct DeviceTokenOptions: ParsableArguments {
  @Option(help: "The device's token (bdt_…), as `devices add` showed it.") var token: String?
  @Option(name: .customLong("token-file"), help: "A file holding the device's token (`devices add --save-token` writes one).")
  var tokenFile: String?

  func metadata() throws -> Metadata {
    var token = self.token
    if token == nil, let tokenFile {
      guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
        throw ValidationError("--token-file: cannot read \(tokenFile)")
      }
      token = text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    token = token ?? ProcessInfo.processInfo.environment["BINARIO_DEVICE_TOKEN"]
    guard let token, !token.isEmpty else {
      throw ValidationError("give the device's token: --token, --token-file or BINARIO_DEVICE_TOKEN (`binario devices add` shows it once)")
    }
    return ["authorization": .string("Device \(token)")]
  }
}

extension Print {
  static func device(_ device: Binario_Telemetry_V1_Device) {
    let token = device.hasToken_p ? "" : "  (token revoked)"
    let campaign = device.campaignID.isEmpty ? "private" : "campaign \(device.campaignID)"
    print("\(device.id)  \(device.name)  \(device.mine ? "yours" : "of \(device.ownerUserID)"), \(campaign)\(token)")
  }

  static func value(_ value: Double) -> String {
    String(format: "%.2f", value)
  }

  static func referenceSensor(_ sensor: Binario_Telemetry_V1_ReferenceSensor) -> String {
    let measure = sensor.measure == .unspecified ? "" : " → \(MeasureArgument.name(sensor.measure))"
    return "\(sensor.sensorID)  \(sensor.typeName) (\(sensor.unit))\(measure)  at \(sensor.stationName), \(sensor.municipality)"
      + (sensor.historical ? "  (historical)" : "")
  }

  static func uploadOutcome(_ response: Binario_Telemetry_V1_UploadReadingsResponse, sent: Int) {
    print("\(response.accepted) of \(sent) readings accepted: \(response.stored) stored, \(response.duplicates) already stored")
    for refusal in response.rejected.prefix(20) { print("  reading \(refusal.index + 1) refused: \(refusal.reason)") }
    if response.rejected.count > 20 { print("  … and \(response.rejected.count - 20) more refused") }
  }
}
