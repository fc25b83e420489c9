import BinarioDomain
import Foundation
import Testing

@testable import TelemetryService

/// openSenseMap's outlier option: three median absolute deviations around the median of the
/// readings before, on hand-computed series.
@Suite("Outliers in a series")
struct OutlierWindowTests {
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  func series(_ values: [Double]) -> [(Date, Double)] {
    values.enumerated().map { (start.addingTimeInterval(Double($0.offset) * 60), $0.element) }
  }

  @Test("a spike is marked (median 11, MAD 1: 8…14 is normal), the values after it are not; replacing puts the window's mean")
  func spike() throws {
    let values = series([10, 11, 10, 12, 11, 50, 11, 3])
    let marked = try OutlierWindow(size: 5, replace: false).apply(values)
    // After the spike the window [11, 10, 12, 11, 50] has median 11 and MAD 1: 11 is normal;
    // then [10, 12, 11, 50, 11]: median 11, MAD 1, so 3 is an outlier.
    #expect(marked.outliers == [start.addingTimeInterval(300), start.addingTimeInterval(420)])
    #expect(marked.values.map(\.1) == values.map(\.1))
    let replaced = try OutlierWindow(size: 5, replace: true).apply(values)
    #expect(replaced.values[5].1 == (10 + 11 + 10 + 12 + 11) / 5.0)
    #expect(replaced.values[7].1 == (10 + 12 + 11 + 50 + 11) / 5.0)
    #expect(replaced.values[6].1 == 11)
  }

  @Test("the first readings, before the window is full, are never marked; the window's size is 1 to 50")
  func bounds() throws {
    #expect(try OutlierWindow(size: 15, replace: false).apply(series([1, 1000, 1, 1000])).outliers.isEmpty)
    #expect(throws: ServiceError.self) { try OutlierWindow(size: 0, replace: false) }
    #expect(throws: ServiceError.self) { try OutlierWindow(size: 51, replace: false) }
  }
}
