import Foundation

/// A service day, as GTFS writes it (`YYYYMMDD`): the day a train run belongs to, whatever
/// clock time its later stops fall on.
public struct ServiceDate: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day) else {
      return nil
    }
    self.year = year
    self.month = month
    self.day = day
  }

  /// `YYYYMMDD`.
  public init?(gtfs text: String) {
    let digits = Array(text.utf8)
    guard digits.count == 8, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
    func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
    self.init(year: number(0..<4), month: number(4..<6), day: number(6..<8))
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

  public func adding(days: Int) -> ServiceDate { ServiceDate(daysSinceEpoch: self.daysSinceEpoch + days) }

  public static func < (lhs: ServiceDate, rhs: ServiceDate) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

  /// `YYYY-MM-DD`.
  public var description: String {
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(pad(self.year, 4))-\(pad(self.month, 2))-\(pad(self.day, 2))"
  }

  private static func days(inMonth month: Int, of year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

/// A time within a service day, as seconds from the day's start: GTFS's `HH:MM:SS`, where the
/// hour may pass 24 for a run that goes on after midnight (`25:10:00` is 01:10 the next
/// morning, and still belongs to the day the run started). Never stored as a clock time.
public struct ServiceTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let secondsSinceServiceDayStart: Int

  public init(seconds: Int) {
    self.secondsSinceServiceDayStart = seconds
  }

  /// `H:MM:SS` or `HH:MM:SS`, hours 0-47.
  public init?(gtfs text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, (1...2).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
      let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]),
      (0..<48).contains(hours), (0..<60).contains(minutes), (0..<60).contains(seconds),
      parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } })
    else { return nil }
    self.secondsSinceServiceDayStart = hours * 3600 + minutes * 60 + seconds
  }

  /// `HH:MM` or `HH:MM:SS` as an admin types it (hours 0-47, past 24 after midnight).
  public init?(clock text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    self.init(gtfs: trimmed.split(separator: ":").count == 2 ? trimmed + ":00" : trimmed)
  }

  public static func < (lhs: ServiceTime, rhs: ServiceTime) -> Bool {
    lhs.secondsSinceServiceDayStart < rhs.secondsSinceServiceDayStart
  }

  /// `HH:MM:SS`, hours past 24 as GTFS writes them.
  public var description: String {
    let s = self.secondsSinceServiceDayStart
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
  }
}
