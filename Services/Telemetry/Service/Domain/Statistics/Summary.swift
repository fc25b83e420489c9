/// Count, extremes, mean and quartiles of a measure's values: the dispersion table.
///
/// Quartiles are exact (every value is read, sorted once) and use linear interpolation between
/// order statistics, Hyndman and Fan's definition 7 (the default of R, NumPy and spreadsheets):
/// for the p-quantile of n sorted values x₀…xₙ₋₁, h = (n − 1)·p, and
/// Q(p) = x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). The median of an even count is the mean of the middle two.
public struct Summary: Sendable, Hashable {
  public var count: Int
  public var minimum: Double
  public var maximum: Double
  public var mean: Double
  public var firstQuartile: Double
  public var median: Double
  public var thirdQuartile: Double

  /// `nil` for no values.
  public init?<Values: Sequence<Double>>(_ values: Values) {
    var sorted = Array(values)
    guard !sorted.isEmpty else { return nil }
    sorted.sort()
    count = sorted.count
    minimum = sorted[0]
    maximum = sorted[sorted.count - 1]
    // Kahan summation: a million readings keep their mean to the last digit.
    var sum = 0.0
    var compensation = 0.0
    for value in sorted {
      let y = value - compensation
      let t = sum + y
      compensation = (t - sum) - y
      sum = t
    }
    mean = sum / Double(sorted.count)
    firstQuartile = Self.quantile(sorted, 0.25)
    median = Self.quantile(sorted, 0.5)
    thirdQuartile = Self.quantile(sorted, 0.75)
  }

  /// The p-quantile (0…1) of sorted values, definition 7.
  public static func quantile(_ sorted: [Double], _ p: Double) -> Double {
    precondition(!sorted.isEmpty && (0...1).contains(p))
    let h = Double(sorted.count - 1) * p
    let lower = Int(h.rounded(.down))
    let upper = Swift.min(lower + 1, sorted.count - 1)
    return sorted[lower] + (h - Double(lower)) * (sorted[upper] - sorted[lower])
  }
}
