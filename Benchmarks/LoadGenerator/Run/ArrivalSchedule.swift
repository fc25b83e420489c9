/// When each call of one operation is meant to start: evenly spaced at its rate from a start
/// instant, as wrk2 schedules (a constant arrival rate). Latency counts from these instants, so
/// a suite that falls behind is measured by how late its answers are, not hidden by the
/// generator waiting for it (coordinated omission).
struct ArrivalSchedule: Sendable {
  let start: ContinuousClock.Instant
  let perSecond: Double

  init(start: ContinuousClock.Instant, perSecond: Double) {
    precondition(perSecond > 0, "a schedule needs a rate above 0")
    self.start = start
    self.perSecond = perSecond
  }

  /// The intended start of call `number` (from 0). Computed from the start each time, so
  /// rounding never accumulates.
  func instant(of number: Int) -> ContinuousClock.Instant {
    start + .nanoseconds(Int64((Double(number) * 1e9 / perSecond).rounded()))
  }

  /// How many calls are meant to start before `end`.
  func count(before end: ContinuousClock.Instant) -> Int {
    let seconds = Double((end - start).components.seconds) + Double((end - start).components.attoseconds) / 1e18
    guard seconds > 0 else { return 0 }
    let exact = seconds * perSecond
    let whole = exact.rounded(.up)
    return Int(whole == exact ? exact : whole)
  }
}
