import BinarioDomain
import Foundation

/// The European Air Quality Index (EAQI) of the European Environment Agency: six bands from good
/// to extremely poor, each a range of concentration (µg/m³) per pollutant, with the EEA's colour
/// and its health advice for everyone and for sensitive people.
///
/// The thresholds are the EEA's as revised in 2024 (aligned with the WHO's 2021 guidelines), and
/// apply to hourly concentrations; `docs/air-quality-index.md` lists them with their source. A
/// value on a threshold belongs to the better band ("0–5" is good, 5.01 fair), as the EEA's
/// tables read. A board measures only the particulate pollutants (PM2.5, PM10); the reference
/// stations also NO₂, O₃ and SO₂.
public enum AirQualityBand: Int, Sendable, Hashable, CaseIterable, Comparable {
  case good = 1
  case fair
  case moderate
  case poor
  case veryPoor
  case extremelyPoor

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Where the thresholds come from.
  public static let source = "European Environment Agency, European Air Quality Index (2024 revision): https://airindex.eea.europa.eu"

  /// The band's name, as the EEA calls it.
  public var name: PersonText {
    switch self {
    case .good: return "Good"
    case .fair: return "Fair"
    case .moderate: return "Moderate"
    case .poor: return "Poor"
    case .veryPoor: return "Very poor"
    case .extremelyPoor: return "Extremely poor"
    }
  }

  /// The EEA's colour for the band, as CSS hex.
  public var colour: String {
    switch self {
    case .good: return "#50f0e6"
    case .fair: return "#50ccaa"
    case .moderate: return "#f0e641"
    case .poor: return "#ff5050"
    case .veryPoor: return "#960032"
    case .extremelyPoor: return "#7d2181"
    }
  }

  /// What the EEA advises everyone at this band.
  public var advice: PersonText {
    switch self {
    case .good: return "The air is good: enjoy your usual outdoor activities."
    case .fair, .moderate: return "Enjoy your usual outdoor activities."
    case .poor, .veryPoor:
      return "If your eyes, throat or chest feel irritated, consider doing less intense activity outdoors."
    case .extremelyPoor: return "Do less physical activity outdoors."
    }
  }

  /// What the EEA advises sensitive people (with asthma, heart or lung conditions; children and
  /// the elderly) at this band.
  public var sensitiveAdvice: PersonText {
    switch self {
    case .good, .fair: return "Enjoy your usual outdoor activities."
    case .moderate: return "If you have symptoms, consider doing less intense activity outdoors."
    case .poor: return "Consider doing less physical activity, above all outdoors and if you have symptoms."
    case .veryPoor: return "Do less physical activity, above all outdoors and if you have symptoms."
    case .extremelyPoor: return "Avoid physical activity outdoors."
    }
  }
}

/// The pollutants the index is computed for.
public enum Pollutant: String, Sendable, Hashable, CaseIterable {
  case pm2_5 = "PM2.5"
  case pm10 = "PM10"
  case no2 = "NO2"
  case o3 = "O3"
  case so2 = "SO2"

  /// The upper bounds (µg/m³, inclusive) of the bands good to very poor; above the last is
  /// extremely poor.
  public var upperBounds: [Double] {
    switch self {
    case .pm2_5: return [5, 15, 50, 90, 140]
    case .pm10: return [15, 45, 120, 195, 270]
    case .no2: return [10, 25, 60, 100, 150]
    case .o3: return [60, 100, 120, 160, 180]
    case .so2: return [20, 40, 125, 190, 275]
    }
  }

  /// The band of an hourly concentration (µg/m³); `nil` for a value that is not one (negative or
  /// not finite).
  public func band(of concentration: Double) -> AirQualityBand? {
    guard concentration.isFinite, concentration >= 0 else { return nil }
    let index = upperBounds.firstIndex { concentration <= $0 } ?? upperBounds.count
    return AirQualityBand(rawValue: index + 1)
  }

  /// The concentrations band `band` spans: from its lower bound (exclusive but for good's 0) to
  /// its upper bound (inclusive), open above for extremely poor.
  public func range(of band: AirQualityBand) -> (from: Double, to: Double?) {
    let index = band.rawValue - 1
    return (index == 0 ? 0 : upperBounds[index - 1], index < upperBounds.count ? upperBounds[index] : nil)
  }
}

extension Measure {
  /// The pollutant of the index this measure is, if any.
  public var pollutant: Pollutant? {
    switch self {
    case .pm2_5: return .pm2_5
    case .pm10: return .pm10
    default: return nil
    }
  }

  /// The index band of `value` of this measure; `nil` for a measure the index does not cover.
  public func airQualityBand(of value: Double) -> AirQualityBand? { pollutant?.band(of: value) }
}
