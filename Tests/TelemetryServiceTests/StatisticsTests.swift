import BinarioDomain
import Foundation
import Testing

@testable import TelemetryService

@Suite("Measures and statistics")
struct StatisticsTests {
  @Test("a reading outside its measure's physical range, or not finite, is refused with the reason")
  func ranges() {
    #expect(Measure.humidity.problem(with: 55) == nil)
    #expect(Measure.humidity.problem(with: 101) == "humidity 101.0 % is outside 0…100 %")
    #expect(Measure.pm10.problem(with: -1) != nil)
    #expect(Measure.temperature.problem(with: .nan) == "temperature must be a finite number")
    #expect(Measure.eco2.problem(with: 399) != nil)
    #expect(Measure.allCases.count == 11)
    #expect(Measure(rawValue: "pm2.5") == .pm2_5)
  }

  @Test("quartiles by linear interpolation (definition 7), as R and NumPy give them")
  func knownQuartiles() throws {
    let four = try #require(Summary([4, 1, 3, 2]))
    #expect((four.firstQuartile, four.median, four.thirdQuartile) == (1.75, 2.5, 3.25))
    #expect((four.count, four.minimum, four.maximum, four.mean) == (4, 1, 4, 2.5))
    let five = try #require(Summary([7, 15, 36, 39, 40, 41].dropLast()))
    #expect((five.firstQuartile, five.median, five.thirdQuartile) == (15, 36, 39))
    let one = try #require(Summary([3]))
    #expect((one.firstQuartile, one.median, one.thirdQuartile) == (3, 3, 3))
    #expect(Summary([]) == nil)
  }

  @Test("on random data the quartiles match an independent computation by order statistics")
  func randomQuartiles() throws {
    var random = SeededGenerator(state: 7)
    for _ in 0 ..< 150 {
      let count = Int.random(in: 1 ... 300, using: &random)
      let values = (0 ..< count).map { _ in Double(Int.random(in: -50 ... 500, using: &random)) / 4 }
      let summary = try #require(Summary(values))
      for (p, found) in [(0.25, summary.firstQuartile), (0.5, summary.median), (0.75, summary.thirdQuartile)] {
        let h = Double(count - 1) * p
        let k = Int(h.rounded(.down))
        let lower = Self.orderStatistic(values, k)
        let upper = Self.orderStatistic(values, min(k + 1, count - 1))
        let expected = lower + (h - Double(k)) * (upper - lower)
        #expect(abs(found - expected) < 1e-9, "p=\(p) of \(count) values: \(found) vs \(expected)")
      }
      #expect(summary.firstQuartile <= summary.median && summary.median <= summary.thirdQuartile)
      #expect(abs(summary.mean - values.reduce(0, +) / Double(count)) < 1e-9)
    }
  }

  @Test(
    "selection gives what sorting gives, on orders that trouble a quickselect",
    arguments: ["sorted", "reversed", "equal", "organ pipe", "sawtooth", "two values"]
  )
  func selectionAgainstSorting(order: String) throws {
    let n = 20_001
    let values: [Double] = (0 ..< n).map { i in
      switch order {
      case "sorted": return Double(i)
      case "reversed": return Double(n - i)
      case "equal": return 7
      case "organ pipe": return Double(min(i, n - i))
      case "sawtooth": return Double(i % 60) + 0.5
      default: return i % 2 == 0 ? 1 : 2
      }
    }
    let summary = try #require(Summary(values))
    let sorted = values.sorted()
    #expect(summary.firstQuartile == Summary.quantile(sorted, 0.25))
    #expect(summary.median == Summary.quantile(sorted, 0.5))
    #expect(summary.thirdQuartile == Summary.quantile(sorted, 0.75))
    #expect(summary.minimum == sorted.first && summary.maximum == sorted.last)
  }

  /// The k-th smallest value (0-based), by counting rather than sorting.
  static func orderStatistic(_ values: [Double], _ k: Int) -> Double {
    for candidate in Set(values) {
      let below = values.filter { $0 < candidate }.count
      let upTo = values.filter { $0 <= candidate }.count
      if below <= k && k < upTo { return candidate }
    }
    fatalError("no order statistic \(k)")
  }

  @Test("a series downsampled to at most N points: each bucket's min, mean and max, in time order")
  func buckets() throws {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let buckets = TimeBuckets(range: start ..< start.addingTimeInterval(3600), maximumPoints: 60)
    #expect(buckets.width == 60)
    var random = SeededGenerator(state: 3)
    let readings = (0 ..< 3600).map { second in (start.addingTimeInterval(Double(second)), Double(second % 60)) }.shuffled(using: &random)
    let points = buckets.points(readings + [(start.addingTimeInterval(-1), 1000), (start.addingTimeInterval(3600), 1000)])
    #expect(points.count == 60)
    #expect(points.map(\.start) == (0 ..< 60).map { start.addingTimeInterval(Double($0 * 60)) })
    #expect(points.allSatisfy { $0.count == 60 && $0.minimum == 0 && $0.maximum == 59 && $0.mean == 29.5 })
    // A short range still has whole-second buckets.
    #expect(TimeBuckets(range: start ..< start.addingTimeInterval(10), maximumPoints: 1000).width == 1)
  }

  @Test("Pearson's r: 1 for a line, -1 against it, none without variation")
  func correlation() throws {
    let line = (0 ..< 50).map { (Double($0), 2 * Double($0) + 3) }
    #expect(abs(try #require(pearsonCorrelation(line)) - 1) < 1e-12)
    #expect(abs(try #require(pearsonCorrelation(line.map { ($0.0, -$0.1) })) + 1) < 1e-12)
    #expect(pearsonCorrelation(line.map { ($0.0, 5) }) == nil)
    #expect(pearsonCorrelation([(1, 2)]) == nil)
  }
}
