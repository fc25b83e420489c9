import Foundation

/// Where the timetable's service days are: turns a run's ``ServiceTime`` on its ``ServiceDate``
/// into an instant, and an instant into the service date and time it falls on.
///
/// GTFS measures a service day's times from "noon minus 12 hours" in the feed's zone, not from
/// midnight, so that times stay evenly spaced on the days clocks change: on the night summer
/// time ends, 00:00:00 of the service day is 23:00 of the evening before in UTC+2 terms.
public struct ServiceDayZone: Sendable {
  public let timeZone: TimeZone

  /// The zone of a feed's agency (`Europe/Rome` for Trenord).
  public init?(identifier: String) {
    guard let zone = TimeZone(identifier: identifier) else { return nil }
    self.timeZone = zone
  }

  /// The instant a service day's times count from: noon of `date` in the zone, minus 12 hours.
  public func start(of date: ServiceDate) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = self.timeZone
    let noon = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))!
    return noon.addingTimeInterval(-12 * 3600)
  }

  /// The instant of `time` on `date`'s service day.
  public func instant(of time: ServiceTime, on date: ServiceDate) -> Date {
    self.start(of: date).addingTimeInterval(Double(time.secondsSinceServiceDayStart))
  }

  /// The service date whose day `instant` falls in (its own day, not the day before's runs
  /// past midnight), and the time within it.
  public func serviceTime(at instant: Date) -> (date: ServiceDate, time: ServiceTime) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = self.timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: instant)
    var date = ServiceDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    // Around a change of the clocks the day's start may lie on either side of local midnight.
    if instant < self.start(of: date) { date = date.adding(days: -1) }
    if instant >= self.start(of: date.adding(days: 1)) { date = date.adding(days: 1) }
    let seconds = Int(instant.timeIntervalSince(self.start(of: date)).rounded(.down))
    return (date, ServiceTime(seconds: seconds))
  }
}
