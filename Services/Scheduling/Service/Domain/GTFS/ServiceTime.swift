import BinarioDomain
import Foundation

/// A service day, as GTFS writes it (`YYYYMMDD`): the day a train run belongs to, whatever
/// clock time its later stops fall on.
public typealias ServiceDate = CalendarDate

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
    guard parts.count == 3, (1 ... 2).contains(parts[0].count), parts[1].count == 2, parts[2].count == 2,
      let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]),
      (0 ..< 48).contains(hours), (0 ..< 60).contains(minutes), (0 ..< 60).contains(seconds),
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
