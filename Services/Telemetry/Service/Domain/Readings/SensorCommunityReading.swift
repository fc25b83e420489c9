import BinarioDomain
import Foundation

/// A post of Sensor.Community's airRohr firmware (the board formerly called luftdaten), as its
/// "custom API" sends it: `sensordatavalues`, each a `value_type` and its value as text, with no
/// time of its own (the server's is the reading's). openSenseMap decodes the same format, so an
/// off-the-shelf board sends to Binario unmodified.
public enum SensorCommunityReading {
  /// The value types taken, and the measure each is (pressure from pascals to hectopascals).
  /// Particulate sensors: SDS011 (`SDS_`), Plantower (`PMS_`), Honeywell (`HPM_`), Sensirion
  /// SPS30 (`SPS30_`, with its PM4 and its PM0.5 count); P0 is PM1, P1 PM10, P2 PM2.5. Climate
  /// sensors: BME280, BMP280, BMP180 (`BMP_`), BME680, SHT3x, HTU21D, DHT22 (no prefix).
  static let measures: [String: (Measure, scale: Double)] = {
    var taken: [String: (Measure, scale: Double)] = [:]
    for prefix in ["SDS_", "PMS_", "HPM_", "SPS30_", "NPM_"] {
      taken[prefix + "P0"] = (.pm1, 1)
      taken[prefix + "P1"] = (.pm10, 1)
      taken[prefix + "P2"] = (.pm2_5, 1)
    }
    taken["SPS30_P4"] = (.pm4, 1)
    taken["SPS30_N05"] = (.pm0_5, 1)
    for prefix in ["BME280_", "BMP280_", "BMP_", "BME680_", "SHT3X_", "HTU21D_", ""] {
      taken[prefix + "temperature"] = (.temperature, 1)
      taken[prefix + "humidity"] = (.humidity, 1)
      taken[prefix + "pressure"] = (.pressure, 0.01)
    }
    return taken
  }()

  /// Value types the firmware sends about itself, not the air: ignored.
  static let ignored: Set<String> = ["samples", "min_micro", "max_micro", "signal", "interval", "GPS_date", "GPS_time", "GPS_timestamp"]

  /// The reading a post makes at `time`: its measures, and its position when it has `GPS_lat`
  /// and `GPS_lon` (`GPS_height`, the GPS's altitude). A value that is not a number is refused,
  /// naming its value type; a value type the suite does not measure is left out.
  public static func reading(_ values: [(type: String, value: String)], at time: Date) throws -> Reading {
    var measured = MeasureValues()
    var latitude: Double?
    var longitude: Double?
    var height: Double?
    for (type, text) in values where !ignored.contains(type) {
      let taken = measures[type]
      guard taken != nil || type.hasPrefix("GPS_") else { continue }
      guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
        throw ServiceError.invalid("sensordatavalues", "the value of \(type) is not a number: \(text.prefix(40))")
      }
      switch type {
      case "GPS_lat": latitude = number
      case "GPS_lon": longitude = number
      case "GPS_height": height = number
      default:
        if let (measure, scale) = taken { measured[measure] = number * scale }
      }
    }
    let position: GeoPoint? = {
      guard let latitude, let longitude, !(latitude == 0 && longitude == 0) else { return nil }
      return GeoPoint(latitude: latitude, longitude: longitude)
    }()
    return Reading(time: time, position: position, altitude: position == nil ? nil : height, values: measured)
  }
}
