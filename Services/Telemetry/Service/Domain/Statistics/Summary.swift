/// Count, extremes, mean and quartiles of a measure's values: the dispersion table.
///
/// Quartiles are exact (every value is read) and use linear interpolation between order
/// statistics, Hyndman and Fan's definition 7 (the default of R, NumPy and spreadsheets): for the
/// p-quantile of n sorted values x₀…xₙ₋₁, h = (n − 1)·p, and
/// Q(p) = x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). The median of an even count is the mean of the middle two.
///
/// The order statistics are found by selection (expected linear time), not by sorting: over a
/// million readings a sort was half of a query's time.
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
    var buffer = Array(values)
    guard let first = buffer.first else { return nil }
    count = buffer.count
    var minimum = first
    var maximum = first
    // Kahan summation: a million readings keep their mean to the last digit.
    var sum = 0.0
    var compensation = 0.0
    for value in buffer {
      minimum = Swift.min(minimum, value)
      maximum = Swift.max(maximum, value)
      let y = value - compensation
      let t = sum + y
      compensation = (t - sum) - y
      sum = t
    }
    self.minimum = minimum
    self.maximum = maximum
    mean = sum / Double(buffer.count)
    (firstQuartile, median, thirdQuartile) = buffer.withUnsafeMutableBufferPointer { values in
      // Increasing p: each selection leaves everything before its index no greater than
      // everything from it on, so the next one searches only from there.
      var start = 0
      let quartiles = [0.25, 0.5, 0.75].map { Self.quantile(values, $0, from: &start) }
      return (quartiles[0], quartiles[1], quartiles[2])
    }
  }

  /// The p-quantile (0…1) of sorted values, definition 7.
  public static func quantile(_ sorted: [Double], _ p: Double) -> Double {
    precondition(!sorted.isEmpty && (0 ... 1).contains(p))
    let h = Double(sorted.count - 1) * p
    let lower = Int(h.rounded(.down))
    let upper = Swift.min(lower + 1, sorted.count - 1)
    return sorted[lower] + (h - Double(lower)) * (sorted[upper] - sorted[lower])
  }

  /// The p-quantile of `values`, definition 7, whose order statistics from `start` on are not yet
  /// in place (and everything before `start` is no greater than anything after); moves `start`.
  static func quantile(_ values: UnsafeMutableBufferPointer<Double>, _ p: Double, from start: inout Int) -> Double {
    let h = Double(values.count - 1) * p
    let lower = Int(h.rounded(.down))
    select(values, lower, in: start ..< values.count)
    start = lower
    let fraction = h - Double(lower)
    guard fraction > 0, lower + 1 < values.count else { return values[lower] }
    select(values, lower + 1, in: lower + 1 ..< values.count)
    return values[lower] + fraction * (values[lower + 1] - values[lower])
  }

  /// Puts the `k`-th smallest of `values[range]` at `k`, the smaller ones before it and the larger
  /// after: quickselect with a median-of-three pivot and a three-way partition (readings repeat
  /// values a lot), sorting the rest should it take too many rounds.
  static func select(_ values: UnsafeMutableBufferPointer<Double>, _ k: Int, in range: Range<Int>) {
    var low = range.lowerBound
    var high = range.upperBound - 1
    var rounds = 0
    while low < high {
      rounds += 1
      if rounds > 64 {
        var rest = UnsafeMutableBufferPointer(rebasing: values[low ... high])
        rest.sort()
        return
      }
      let pivot = Swift.max(
        Swift.min(values[low], values[(low + high) / 2]),
        Swift.min(Swift.max(values[low], values[(low + high) / 2]), values[high])
      )
      var less = low
      var index = low
      var greater = high
      while index <= greater {
        if values[index] < pivot {
          values.swapAt(less, index)
          less += 1
          index += 1
        } else if values[index] > pivot {
          values.swapAt(index, greater)
          greater -= 1
        } else {
          index += 1
        }
      }
      if k < less {
        high = less - 1
      } else if k > greater {
        low = greater + 1
      } else {
        return
      }
    }
  }
}
