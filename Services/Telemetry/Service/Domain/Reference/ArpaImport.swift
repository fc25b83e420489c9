import BinarioDomain
import Foundation

/// Reading what Regione Lombardia's open-data portal publishes for ARPA Lombardia's monitoring
/// networks: the two station catalogues (air quality and weather, which name their fields
/// differently), as the API's JSON rows, the CSV export or the GeoJSON export; and the
/// measurement datasets (the yearly archives, the current year, the near-real-time feed) as the
/// API's JSON or the CSV export. `docs/regional-data.md` lists the fields and codes read and why.
///
/// Field names are matched whatever their case, accents, spaces and underscores (the API's
/// `unit_dimisura` is the export's `Unità DiMisura`). The portal's times are in standard time
/// (UTC+1 all year, no daylight saving): they are read as such and kept as UTC instants. A value
/// of `-9999` is missing; a `stato` other than `VA` (validated) is not valid, except that a row
/// without one is provisional (the near-real-time feed is not validated); an `idoperatore` says
/// which of a sensor's series the value is. Rows left out are counted with the first few reasons.
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
      return collect(Self.fields(of: try Self.csv(data)), network: network)
    case .json:
      guard let rows = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
        throw ServiceError.invalid("file", "a station catalogue in JSON is an array of rows")
      }
      return collect(rows.map(Self.fields(of:)), network: network)
    case .geoJSON:
      guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let features = object["features"] as? [[String: Any]]
      else { throw ServiceError.invalid("file", "a GeoJSON catalogue is a FeatureCollection") }
      return collect(
        features.map { feature in
          let properties = Self.fields(of: feature["properties"] as? [String: Any] ?? [:])
          let coordinates = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Any]
          return { name in
            switch name {
            case "lng": return properties(name) ?? coordinates.flatMap { $0.first }.flatMap(Self.text)
            case "lat": return properties(name) ?? coordinates.flatMap { $0.count > 1 ? $0[1] : nil }.flatMap(Self.text)
            default: return properties(name)
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
          // The air catalogue's names, then the weather catalogue's.
          typeName: field("nometiposensore") ?? field("tipologia") ?? "",
          unit: field("unitamisura") ?? field("unitdimisura") ?? field("unitadimisura") ?? "",
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

  /// The measurements of a file (the API's JSON or the CSV export); `rows` counts every row read,
  /// taken or not (a page's length, for paging).
  public static func measurements(_ data: Data) throws -> (outcome: Outcome<ReferenceMeasurement>, rows: Int) {
    let rows: [(String) -> String?]
    switch format(of: data) {
    case .csv:
      rows = Self.fields(of: try Self.csv(data))
    case .json:
      guard let objects = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
        throw ServiceError.invalid("file", "measurements in JSON are an array of rows")
      }
      rows = objects.map(Self.fields(of:))
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
      let validity: ReferenceMeasurement.Validity
      switch field("stato")?.uppercased() {
      case "VA": validity = .validated
      case nil: validity = .provisional
      case let code?:
        outcome.skip("sensor \(sensorID) at \(time): stato \(code) is not valid")
        continue
      }
      let code = field("idoperatore") ?? "1"
      guard let number = Int(code), let `operator` = ReferenceMeasurement.Operator(rawValue: number) else {
        outcome.skip("sensor \(sensorID) at \(time): unknown idoperatore \(code)")
        continue
      }
      outcome.items.append(ReferenceMeasurement(sensorID: sensorID, time: time, value: value, operator: `operator`, validity: validity))
    }
    return (outcome, rows.count)
  }

  // MARK: - Fields

  /// A field name as matched: lower case, no accents, letters and digits only (`Unità DiMisura`
  /// and `unit_dimisura` differ still, so a field may have two names).
  static func key(_ name: String) -> String {
    String(
      name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX")).unicodeScalars
        .filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init)
    )
  }

  /// A JSON row's fields by ``key(_:)``, as text whatever their JSON type (the API gives numbers
  /// as strings).
  static func fields(of row: [String: Any]) -> (String) -> String? {
    var byKey: [String: Any] = [:]
    for (name, value) in row { byKey[key(name)] = value }
    return { name in byKey[name].flatMap(text) }
  }

  /// A CSV export's rows, each as its fields by ``key(_:)``.
  static func fields(of table: CSVTable) -> [(String) -> String?] {
    var columns: [String: Int] = [:]
    for (index, name) in table.header.enumerated() where columns[key(name)] == nil { columns[key(name)] = index }
    return table.rows.map { row in
      { name in
        guard let index = columns[name], index < row.fields.count else { return nil }
        let value = row.fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
      }
    }
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
