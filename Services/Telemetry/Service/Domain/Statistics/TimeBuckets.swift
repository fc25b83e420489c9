import Foundation

/// A series' point for a chart: one time bucket's minimum, mean and maximum.
public struct BucketPoint: Sendable, Hashable {
  /// The bucket's start.
  public var start: Date
  public var count: Int
  public var minimum: Double
  public var mean: Double
  public var maximum: Double
  /// How many of the bucket's readings were outliers (when the series marks them).
  public var outliers = 0
}

/// Downsampling a series to at most N points: the range is cut into N equal time buckets (at
/// least one second each) and each non-empty bucket becomes one point. Readings come in any order.
public struct TimeBuckets: Sendable, Hashable {
  public var range: Range<Date>
  /// Seconds per bucket.
  public var width: TimeInterval

  /// Buckets covering `range` in at most `maximumPoints` of equal whole-second width.
  public init(range: Range<Date>, maximumPoints: Int) {
    self.range = range
    let span = range.upperBound.timeIntervalSince(range.lowerBound)
    self.width = Swift.max(1, (span / Double(Swift.max(1, maximumPoints))).rounded(.up))
  }

  /// The bucket a reading at `instant` falls in; `nil` outside the range.
  public func index(of instant: Date) -> Int? {
    guard range.contains(instant) else { return nil }
    return Int(instant.timeIntervalSince(range.lowerBound) / width)
  }

  /// The points of `readings` (time, value), in time order.
  public func points<Readings: Sequence<(Date, Double)>>(_ readings: Readings) -> [BucketPoint] {
    // One slot per bucket (at most the points asked for, and one for a range that is not a
    // whole number of buckets): a million readings are summed without a dictionary lookup each.
    let count = Int((range.upperBound.timeIntervalSince(range.lowerBound) / width).rounded(.up)) + 1
    var buckets = [(count: Int, minimum: Double, sum: Double, maximum: Double)](repeating: (0, 0, 0, 0), count: count)
    for (instant, value) in readings {
      guard let index = index(of: instant) else { continue }
      let bucket = buckets[index]
      buckets[index] =
        bucket.count == 0
        ? (1, value, value, value) : (bucket.count + 1, Swift.min(bucket.minimum, value), bucket.sum + value, Swift.max(bucket.maximum, value))
    }
    return buckets.indices.filter { buckets[$0].count > 0 }.map { index in
      let bucket = buckets[index]
      return BucketPoint(
        start: range.lowerBound.addingTimeInterval(Double(index) * width),
        count: bucket.count,
        minimum: bucket.minimum,
        mean: bucket.sum / Double(bucket.count),
        maximum: bucket.maximum
      )
    }
  }
}
