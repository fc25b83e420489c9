import BinarioDomain
import Foundation

/// Readings as CSV (``CSVLine``'s RFC 4180): any leading columns, then `time` (ISO 8601, UTC, to
/// the millisecond), `latitude`, `longitude` (empty for a reading without a GPS fix),
/// `position_altitude` (the GPS's), and one column per measure by its name (empty where the
/// reading has none; `altitude` is the barometric one the board measures). A board's export and
/// open data write it.
public enum ReadingCSV {
  /// `2024-01-15T06:00:00.000Z`.
  static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

  public static func header(leading: [String] = []) -> String {
    CSVLine.encode(leading + ["time", "latitude", "longitude", "position_altitude"] + Measure.allCases.map(\.rawValue))
  }

  public static func line(_ reading: Reading, leading: [String] = []) -> String {
    let time = reading.time.formatted(Self.time)
    let position: [String] = [
      reading.position.map { String($0.latitude) } ?? "",
      reading.position.map { String($0.longitude) } ?? "",
      reading.altitude.map { String($0) } ?? "",
    ]
    return CSVLine.encode(leading + [time] + position + Measure.allCases.map { reading.values[$0].map { String($0) } ?? "" })
  }
}
