import BinarioDomain
import Foundation

/// Reading what Regione Lombardia's open-data portal publishes for ARPA Lombardia's monitoring
/// networks: the station catalogues (the API's JSON rows, the CSV export, the GeoJSON export) and
/// the measurements (the API's JSON, the CSV export).
///
/// The portal's times are in standard time (UTC+1 all year, no daylight saving): they are read as
/// such and kept as UTC instants. A measurement of `-9999` is missing, and one whose `stato` is not
/// `VA` (validated) is not valid: both are skipped and counted. Empty fields are tolerated where
/// the value is optional (elevation, dates); a row without its identity or position is skipped
/// and counted.
public enum ArpaImport {
  /// The portal's standard time.
  static let standardTime = TimeZone(secondsFromGMT: 3600)!

  /// What an import read.
  public struct Outcome<Item: Sendable>: Sendable {
    public var items: [Item]
    /// Rows left out: missing values, invalid `stato`, no id, unreadable numbers or dates.
    public var skipped: Int
    /// Why the first few were skipped, for a person.
    public var problems: [String]
  }

  /// The file's kind, from its content.
  public enum Format: Sendable {
    case json, csv, geoJSON
  }

  public static func format(of data: Data) -> Format {
    let start = data.prefix(64).drop { [0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }.first
    guard start == UInt8(ascii: "{") || start == UInt8(ascii: "[") else { return .csv }
    if start == UInt8(ascii: "{"), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      object["features"] != nil
    {
      return .geoJSON
    }
    return .json
  }

  /// A CSV export, its columns named in any case; a malformed one is refused naming the line and
  /// column at fault.
  static func csv(_ data: Data) throws -> CSVTable {
    do {
      return try CSVTable(file: "file", bytes: Array(data), ignoringCase: true)
    } catch {
      // A file's problem as the reader says it: line, column and cause, for whoever prepared it.
      throw ServiceError.invalid("file", PersonText(verbatim: error.description))
    }
  }

  // MARK: - Stations

  /// The sensors of a station catalogue, in any of the portal's three formats.
  public static func sensors(_ data: Data, network: ReferenceSensor.Network) throws -> Outcome<ReferenceSensor> {
    switch format(of: data) {
    case .csv:
      return collect(try Self.csv(data).rows.map { row in { name in row.value(name) } }, network: network)
    case .json:
      guard let rows = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
        throw ServiceError.invalid("file", "a station catalogue in JSON is an array of rows")
      }
      return collect(rows.map { row in { name in Self.text(row, name) } }, network: network)
    case .geoJSON:
      guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let features = object["features"] as? [[String: Any]]
      else { throw ServiceError.invalid("file", "a GeoJSON catalogue is a FeatureCollection") }
      return collect(
        features.map { feature in
          let properties = feature["properties"] as? [String: Any] ?? [:]
          let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Any]
          return { name in
            switch name.lowercased() {
            case "lng": return Self.text(properties, name) ?? coordinates.flatMap { $0.first }.flatMap(Self.text)
            case "lat": return Self.text(properties, name) ?? coordinates.flatMap { $0.count > 1 ? $0[1] : nil }.flatMap(Self.text)
            default: return Self.text(properties, name)
            }
          }
        },
        network: network
      )
    }
  }

  static func collect(_ rows: [(String) -> String?], network: ReferenceSensor.Network) -> Outcome<ReferenceSensor> {
    var outcome = Outcome<ReferenceSensor>(items: [], skipped: 0, problems: [])
    for (index, field) in rows.enumerated() {
      guard let sensorID = field("idsensore"), let stationID = field("idstazione") else {
        outcome.skip("row \(index + 1): no idsensore or idstazione")
        continue
      }
      guard let latitude = field("lat").flatMap(number), let longitude = field("lng").flatMap(number),
        (-90 ... 90).contains(latitude), (-180 ... 180).contains(longitude)
      else {
        outcome.skip("sensor \(sensorID): no position")
        continue
      }
      outcome.items.append(
        ReferenceSensor(
          sensorID: sensorID,
          typeName: field("nometiposensore") ?? "",
          unit: field("unitamisura") ?? "",
          stationID: stationID,
          stationName: field("nomestazione") ?? "",
          elevation: field("quota").flatMap(number),
          province: field("provincia") ?? "",
          municipality: field("comune") ?? "",
          historical: field("storico")?.uppercased() == "S",
          startDate: field("datastart").flatMap(date),
          stopDate: field("datastop").flatMap(date),
          position: GeoPoint(latitude: latitude, longitude: longitude),
          network: network
        )
      )
    }
    return outcome
  }

  // MARK: - Measurements

  /// The measurements of a file (the API's JSON or the CSV export).
  public static func measurements(_ data: Data) throws -> Outcome<ReferenceMeasurement> {
    var rows: [(String) -> String?]
    switch format(of: data) {
    case .csv:
      rows = try Self.csv(data).rows.map { row in { name in row.value(name) } }
    case .json:
      guard let objects = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
        throw ServiceError.invalid("file", "measurements in JSON are an array of rows")
      }
      rows = objects.map { row in { name in Self.text(row, name) } }
    case .geoJSON:
      throw ServiceError.invalid("file", "measurements come as JSON rows or CSV, not GeoJSON")
    }
    var outcome = Outcome<ReferenceMeasurement>(items: [], skipped: 0, problems: [])
    for (index, field) in rows.enumerated() {
      guard let sensorID = field("idsensore") else {
        outcome.skip("row \(index + 1): no idsensore")
        continue
      }
      guard let time = field("data").flatMap(date) else {
        outcome.skip("sensor \(sensorID) row \(index + 1): unreadable date \(field("data") ?? "")")
        continue
      }
      guard let value = field("valore").flatMap(number), value != -9999 else {
        outcome.skip("sensor \(sensorID) at \(time): missing value")
        continue
      }
      guard (field("stato") ?? "VA").uppercased() == "VA" else {
        outcome.skip("sensor \(sensorID) at \(time): stato \(field("stato") ?? "") is not valid")
        continue
      }
      outcome.items.append(ReferenceMeasurement(sensorID: sensorID, time: time, value: value))
    }
    return outcome
  }

  // MARK: - Fields

  /// A JSON row's field as text whatever its JSON type (the API gives numbers as strings).
  static func text(_ row: [String: Any], _ name: String) -> String? {
    let value = row[name] ?? row.first { $0.key.lowercased() == name.lowercased() }?.value
    return value.flatMap(text)
  }

  static func text(_ value: Any) -> String? {
    switch value {
    case let string as String:
      let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
      return trimmed.isEmpty ? nil : trimmed
    case let number as NSNumber: return number.stringValue
    default: return nil
    }
  }

  /// A number with a decimal point or a decimal comma.
  static func number(_ text: String) -> Double? {
    Double(text.replacingOccurrences(of: ",", with: ".")).flatMap { $0.isFinite ? $0 : nil }
  }

  /// `2023-01-01T00:00:00.000`, `2023-01-01`, `01/01/2023`, `01/01/2023 12:00:00 AM` or
  /// `01/01/2023 00:00:00`, in standard time.
  static func date(_ text: String) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = standardTime
    let digits = text.split(whereSeparator: { !$0.isNumber }).map { Int($0) }
    guard digits.count >= 3, !digits.contains(nil) else { return nil }
    let numbers = digits.map { $0! }
    var parts = DateComponents()
    if text.contains("-") {
      (parts.year, parts.month, parts.day) = (numbers[0], numbers[1], numbers[2])
    } else {
      (parts.day, parts.month, parts.year) = (numbers[0], numbers[1], numbers[2])
    }
    var hour = numbers.count > 3 ? numbers[3] : 0
    let upper = text.uppercased()
    if upper.hasSuffix("PM"), hour < 12 { hour += 12 }
    if upper.hasSuffix("AM"), hour == 12 { hour = 0 }
    parts.hour = hour
    parts.minute = numbers.count > 4 ? numbers[4] : 0
    parts.second = numbers.count > 5 ? numbers[5] : 0
    guard let month = parts.month, (1 ... 12).contains(month), let day = parts.day, (1 ... 31).contains(day), (0 ... 23).contains(hour)
    else { return nil }
    return calendar.date(from: parts)
  }
}

extension ArpaImport.Outcome {
  mutating func skip(_ problem: String) {
    skipped += 1
    if problems.count < 10 { problems.append(problem) }
  }
}
