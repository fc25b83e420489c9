import BinarioDomain
import Foundation
import Testing

@testable import TelemetryService

/// The European Air Quality Index against the EEA's published thresholds (2024 revision,
/// µg/m³, hourly concentrations), written out here from the EEA's table rather than read back
/// from the code.
@Suite("European Air Quality Index")
struct AirQualityIndexTests {
  /// The EEA's table: per pollutant, the upper bound of good, fair, moderate, poor, very poor.
  static let published: [(Pollutant, [Double])] = [
    (.pm2_5, [5, 15, 50, 90, 140]),
    (.pm10, [15, 45, 120, 195, 270]),
    (.no2, [10, 25, 60, 100, 150]),
    (.o3, [60, 100, 120, 160, 180]),
    (.so2, [20, 40, 125, 190, 275]),
  ]

  @Test("each threshold belongs to the better band, and the next value to the worse one")
  func thresholds() {
    let bands = AirQualityBand.allCases
    for (pollutant, bounds) in Self.published {
      #expect(pollutant.band(of: 0) == .good)
      for (index, bound) in bounds.enumerated() {
        #expect(pollutant.band(of: bound) == bands[index], "\(pollutant.rawValue) \(bound)")
        #expect(pollutant.band(of: bound + 0.01) == bands[index + 1], "\(pollutant.rawValue) \(bound + 0.01)")
      }
      #expect(pollutant.band(of: 5_000) == .extremelyPoor)
    }
  }

  @Test("a board's PM2.5 and PM10 carry a band; the other measures none; impossible values none")
  func measures() {
    #expect(Measure.pm2_5.airQualityBand(of: 12) == .fair)
    #expect(Measure.pm10.airQualityBand(of: 12) == .good)
    #expect(Measure.pm10.airQualityBand(of: 150) == .poor)
    #expect(Measure.pm1.airQualityBand(of: 12) == nil)
    #expect(Measure.temperature.airQualityBand(of: 12) == nil)
    #expect(Pollutant.pm2_5.band(of: -1) == nil)
    #expect(Pollutant.pm2_5.band(of: .nan) == nil)
  }

  @Test("each band's ranges meet the next's with no gap, and its words exist in Italian")
  func ranges() {
    for (pollutant, bounds) in Self.published {
      #expect(pollutant.range(of: .good) == (from: 0, to: bounds[0]))
      #expect(pollutant.range(of: .moderate) == (from: bounds[1], to: bounds[2]))
      #expect(pollutant.range(of: .extremelyPoor) == (from: bounds[4], to: nil))
    }
    for band in AirQualityBand.allCases {
      for words in [band.name, band.advice, band.sensitiveAdvice] {
        #expect(words.rendered(in: .italian) != words.rendered(in: .english), "\(words)")
      }
    }
  }

  @Test("PM0.5 is a particle count, the others masses")
  func units() {
    #expect(Measure.pm0_5.unit == "#/cm³")
    #expect(Measure.pm2_5.unit == "µg/m³")
  }
}
