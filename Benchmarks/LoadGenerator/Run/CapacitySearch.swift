/// The highest total rate the suite sustains (every operation's p99 under the limit, nothing
/// failed): double from a start until a run fails, then halve the gap between the last rate
/// sustained and the first not, until they are within a tenth of each other.
public struct CapacitySearch: Sendable {
  public var startRate: Double
  public var p99Limit: Duration
  public var stepDuration: Duration
  public var warmUp: Duration
  /// Never above this (the generator's own share of the two cores has a ceiling too).
  public var maximumRate: Double

  public init(startRate: Double, p99Limit: Duration = .milliseconds(100), stepDuration: Duration, warmUp: Duration, maximumRate: Double = 100_000) {
    self.startRate = startRate
    self.p99Limit = p99Limit
    self.stepDuration = stepDuration
    self.warmUp = warmUp
    self.maximumRate = maximumRate
  }

  public struct Result: Sendable {
    /// Every run, in order.
    public var steps: [LoadReport]
    /// The best run sustained, if any was.
    public var sustained: LoadReport?
    /// The first run above it that was not: what gave first.
    public var failedAbove: LoadReport?
  }

  /// Runs `generator` at the rates the search picks; `beforeStep` hears each rate before its run,
  /// `step` each run as it ends (and whether it was sustained).
  public func run(
    _ generator: LoadGenerator,
    beforeStep: (Double) -> Void = { _ in },
    step: (LoadReport, Bool) -> Void = { _, _ in }
  ) async -> Result {
    let limit = UInt64(p99Limit.components.seconds) * 1_000_000 + UInt64(p99Limit.components.attoseconds / 1_000_000_000_000)
    var steps: [LoadReport] = []
    var best: LoadReport?
    var worst: LoadReport?

    func attempt(_ rate: Double) async -> Bool {
      beforeStep(rate)
      let report = await generator.run(rate: rate, for: stepDuration, warmUp: warmUp)
      let passed = report.sustained(p99Under: limit)
      steps.append(report)
      step(report, passed)
      if passed {
        best = report
      } else if worst == nil || rate < worst!.rate {
        worst = report
      }
      return passed
    }

    var rate = startRate
    while rate <= maximumRate, await attempt(rate) { rate *= 2 }
    while let low = best?.rate ?? (startRate > 1 ? 0 : nil), let high = worst?.rate, high > max(low, 1) * 1.1, steps.count < 16 {
      let middle = low == 0 ? high / 2 : (low + high) / 2
      _ = await attempt(middle.rounded())
    }
    return Result(steps: steps, sustained: best, failedAbove: worst)
  }
}
