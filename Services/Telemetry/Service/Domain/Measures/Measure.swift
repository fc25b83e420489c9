/// What a sensor board measures (MOQA's board: BME280, SGP30, SPS30), each with its unit and the
/// range a real reading can take; a value outside it is refused, not stored.
public enum Measure: String, Sendable, Hashable, CaseIterable, Codable {
  case temperature
  case humidity
  case pressure
  case altitude
  case tvoc
  case eco2
  case pm0_5 = "pm0.5"
  case pm1
  case pm2_5 = "pm2.5"
  case pm4
  case pm10

  /// The unit values are in.
  public var unit: String {
    switch self {
    case .temperature: return "°C"
    case .humidity: return "%"
    case .pressure: return "hPa"
    case .altitude: return "m"
    case .tvoc: return "ppb"
    case .eco2: return "ppm"
    case .pm0_5: return "#/cm³"
    case .pm1, .pm2_5, .pm4, .pm10: return "µg/m³"
    }
  }

  /// The physically possible values (inclusive): wide enough for any place a board is carried,
  /// narrow enough to refuse a broken sensor's numbers. The SPS30 reports PM0.5 only as a number
  /// concentration (particles per cm³; its range is 0–3,000), the others as mass concentrations.
  public var validRange: ClosedRange<Double> {
    switch self {
    case .temperature: return -90 ... 70
    case .humidity: return 0 ... 100
    case .pressure: return 300 ... 1_100
    case .altitude: return -500 ... 9_000
    case .tvoc: return 0 ... 60_000
    case .eco2: return 400 ... 60_000
    case .pm0_5, .pm1, .pm2_5, .pm4, .pm10: return 0 ... 10_000
    }
  }

  /// Why `value` is not a reading of this measure, or `nil` when it is one.
  public func problem(with value: Double) -> String? {
    guard value.isFinite else { return "\(rawValue) must be a finite number" }
    guard validRange.contains(value) else {
      return "\(rawValue) \(value) \(unit) is outside \(Self.format(validRange.lowerBound))…\(Self.format(validRange.upperBound)) \(unit)"
    }
    return nil
  }

  static func format(_ value: Double) -> String {
    value.rounded() == value ? String(Int(value)) : String(value)
  }
}
