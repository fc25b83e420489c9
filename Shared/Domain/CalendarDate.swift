import Foundation

/// A day of the (proleptic Gregorian) calendar, with no time zone: a timetable's service day, a
/// subscription's renewal date. Arithmetic is on days since 1970-01-01, so it never meets a
/// clock change.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  public init?(year: Int, month: Int, day: Int) {
    guard (1 ... 9999).contains(year), (1 ... 12).contains(month), (1 ... Self.days(inMonth: month, of: year)).contains(day) else {
      return nil
    }
    self.year = year
    self.month = month
    self.day = day
  }

  /// `YYYYMMDD` (ISO 8601's basic format, as GTFS writes dates).
  public init?(gtfs text: String) {
    let digits = Array(text.utf8)
    guard digits.count == 8, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
    self.init(year: number(0 ..< 4), month: number(4 ..< 6), day: number(6 ..< 8))
  }

  /// `YYYY-MM-DD`, as the API and its description write dates.
  public init?(iso text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2 else { return nil }
    self.init(gtfs: parts.joined())
  }

  /// Days since 1970-01-01 (proleptic Gregorian calendar).
  public var daysSinceEpoch: Int {
    // Howard Hinnant's days_from_civil.
    let y = self.month <= 2 ? self.year - 1 : self.year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (self.month + (self.month > 2 ? -3 : 9)) + 2) / 5 + self.day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `daysSinceEpoch` days after 1970-01-01.
  public init(daysSinceEpoch days: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    self.month = month
    self.day = day
  }

  /// 1 = Monday ... 7 = Sunday.
  public var weekday: Int {
    // 1970-01-01 was a Thursday (4).
    ((self.daysSinceEpoch % 7 + 7) % 7 + 3) % 7 + 1
  }

  public func adding(days: Int) -> CalendarDate { CalendarDate(daysSinceEpoch: self.daysSinceEpoch + days) }

  /// The same day `months` months later (or earlier), or the month's last day where it is
  /// shorter: 2027-01-31 plus one month is 2027-02-28.
  public func adding(months: Int) -> CalendarDate {
    let index = self.year * 12 + (self.month - 1) + months
    let year = index / 12
    let month = index % 12 + 1
    return CalendarDate(year: year, month: month, day: min(self.day, Self.days(inMonth: month, of: year)))!
  }

  /// Days from this date to `other` (negative when `other` is earlier).
  public func days(until other: CalendarDate) -> Int { other.daysSinceEpoch - self.daysSinceEpoch }

  /// The day `instant` falls on in `zone`.
  public init(_ instant: Date, in zone: TimeZone) {
    let seconds = Int((instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))).rounded(.down))
    self.init(daysSinceEpoch: Int((Double(seconds) / 86_400).rounded(.down)))
  }

  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

  /// `YYYY-MM-DD`.
  public var description: String {
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(self.year, 4))-\(pad(self.month, 2))-\(pad(self.day, 2))"
  }

  /// `YYYYMMDD`, as GTFS writes dates.
  public var gtfs: String { String(self.description.filter { $0 != "-" }) }

  private static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
