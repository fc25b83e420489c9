import Foundation

/// A board's PM2.5 fitted against a reference station's over the spans they share, with relative
/// humidity as a term, as the US EPA's correction for low-cost PM sensors is
/// (Barkjohn et al. 2021: PM2.5 = 0.524 × raw − 0.0862 × RH + 5.75):
/// reference ≈ slope × raw + humidityCoefficient × RH + intercept, by least squares.
public struct Calibration: Sendable, Hashable {
  public var slope: Double
  public var humidityCoefficient: Double
  public var intercept: Double
  /// The fit's quality: R² and the root-mean-square error (µg/m³) on the pairs, and how many.
  public var rSquared: Double
  public var rmse: Double
  public var pairs: Int

  /// One span both measured: the board's mean value and humidity over it, and the station's value.
  public struct Sample: Sendable, Hashable {
    public var raw: Double
    public var humidity: Double
    public var reference: Double

    public init(raw: Double, humidity: Double, reference: Double) {
      (self.raw, self.humidity, self.reference) = (raw, humidity, reference)
    }
  }

  /// The fewest pairs a fit is made on: one more than its three terms, so its quality means something.
  public static let minimumPairs = 4

  /// The corrected value of a raw one measured at `humidity` (%); never below zero.
  public func corrected(raw: Double, humidity: Double) -> Double {
    max(0, slope * raw + humidityCoefficient * humidity + intercept)
  }

  /// Fits `samples` by least squares; `nil` below ``minimumPairs`` or when they do not determine
  /// the three terms (the raw value or the humidity never varying, or varying together).
  public static func fit(_ samples: [Sample]) -> Calibration? {
    guard samples.count >= minimumPairs else { return nil }
    // On values centred on their means, the normal equations are 2 × 2 and well conditioned.
    let count = Double(samples.count)
    let (meanRaw, meanHumidity, meanReference) = (
      samples.reduce(0) { $0 + $1.raw } / count, samples.reduce(0) { $0 + $1.humidity } / count, samples.reduce(0) { $0 + $1.reference } / count
    )
    var (rawRaw, rawHumidity, humidityHumidity, rawReference, humidityReference, referenceReference) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for sample in samples {
      let (raw, humidity, reference) = (sample.raw - meanRaw, sample.humidity - meanHumidity, sample.reference - meanReference)
      rawRaw += raw * raw
      rawHumidity += raw * humidity
      humidityHumidity += humidity * humidity
      rawReference += raw * reference
      humidityReference += humidity * reference
      referenceReference += reference * reference
    }
    // Singular when either never varies or they vary together (r² of raw and humidity ≈ 1).
    let determinant = rawRaw * humidityHumidity - rawHumidity * rawHumidity
    guard rawRaw > 0, humidityHumidity > 0, determinant > 1e-9 * rawRaw * humidityHumidity else { return nil }
    let slope = (rawReference * humidityHumidity - humidityReference * rawHumidity) / determinant
    let humidityCoefficient = (humidityReference * rawRaw - rawReference * rawHumidity) / determinant
    let intercept = meanReference - slope * meanRaw - humidityCoefficient * meanHumidity
    var residual = 0.0
    for sample in samples {
      let error = sample.reference - (slope * sample.raw + humidityCoefficient * sample.humidity + intercept)
      residual += error * error
    }
    return Calibration(
      slope: slope,
      humidityCoefficient: humidityCoefficient,
      intercept: intercept,
      rSquared: referenceReference > 0 ? 1 - residual / referenceReference : 1,
      rmse: (residual / count).squareRoot(),
      pairs: samples.count
    )
  }
}
