import BinarioDomain
import Foundation

/// One sensor of a regional monitoring station (ARPA Lombardia): what it measures, in which unit,
/// where, and since when.
public struct ReferenceSensor: Sendable, Hashable {
  /// Air quality or weather: the portal's two catalogues.
  public enum Network: String, Sendable, Hashable, Codable {
    case airQuality = "air_quality"
    case weather
  }

  /// `idsensore`.
  public var sensorID: String
  /// `nometiposensore`, as the portal names it ("PM10 (SM2005)", "Temperatura").
  public var typeName: String
  public var unit: String
  public var stationID: String
  public var stationName: String
  /// Metres above sea level; `nil` when the row leaves it empty.
  public var elevation: Double?
  public var province: String
  public var municipality: String
  /// Whether the sensor is historical (no longer measuring).
  public var historical: Bool
  public var startDate: Date?
  public var stopDate: Date?
  public var position: GeoPoint
  public var network: Network

  /// The board's measure this sensor's type corresponds to, if any.
  public var measure: Measure? { Self.measure(forTypeName: typeName) }

  /// The portal's sensor type names matched to the board's measures (case and accents ignored;
  /// a type the board does not measure, NO₂ or ozone say, has none).
  public static func measure(forTypeName name: String) -> Measure? {
    let key = name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    if key.hasPrefix("pm10") || key.contains("particelle sospese pm10") || key.contains("particolato pm10") { return .pm10 }
    if key.hasPrefix("pm2.5") || key.hasPrefix("pm 2.5") || key.contains("pm2.5") { return .pm2_5 }
    if key.hasPrefix("temperatura") { return .temperature }
    if key.hasPrefix("umidita relativa") || key.hasPrefix("umidita") { return .humidity }
    if key.hasPrefix("pressione") { return .pressure }
    return nil
  }
}
