import BinarioDomain
import Foundation

/// Marking a board's outliers as openSenseMap's API does (its `outliers` and `outlier-window`
/// options): a value is an outlier when it lies more than three median absolute deviations from
/// the median of the `size` values before it (a moving window over one board's readings in time
/// order; the first `size` values are never marked). Replacing puts the window's mean in an
/// outlier's place. A window of identical values marks any other value.
public struct OutlierWindow: Sendable, Hashable {
  /// The values looked back at: 1 to 50, openSenseMap's bounds (its default is 15).
  public var size: Int
  /// Whether an outlier's value is replaced (by the window's mean) rather than only counted.
  public var replace: Bool

  public static let sizes = 1 ... 50

  /// The window, or INVALID_ARGUMENT naming `outlier_window`.
  public init(size: Int, replace: Bool) throws {
    guard Self.sizes.contains(size) else {
      throw ServiceError.invalid("outlier_window", "looks back at \(Self.sizes.lowerBound) to \(Self.sizes.upperBound) readings")
    }
    self.size = size
    self.replace = replace
  }

  /// One board's values in time order, outliers replaced when asked, and the instants of the
  /// outliers.
  public func apply(_ values: [(Date, Double)]) -> (values: [(Date, Double)], outliers: [Date]) {
    var result = values
    var outliers: [Date] = []
    var window: [Double] = []
    window.reserveCapacity(size + 1)
    for index in values.indices {
      let (instant, value) = values[index]
      if window.count == size {
        let median = Self.median(window)
        let deviation = Self.median(window.map { abs($0 - median) })
        if value > median + 3 * deviation || value < median - 3 * deviation {
          outliers.append(instant)
          if replace { result[index].1 = window.reduce(0, +) / Double(window.count) }
        }
        window.removeFirst()
      }
      // The window holds the values as measured, as openSenseMap's does.
      window.append(value)
    }
    return (result, outliers)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }
}
