#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// ISO 8601 timestamps in UTC with milliseconds (`2025-03-01T08:15:02.042Z`), formatted by hand:
/// cheaper than a date formatter on every log line.
enum LogTimestamp {
  static func format(_ date: Date) -> String {
    let interval = date.timeIntervalSince1970
    var seconds = time_t(interval.rounded(.down))
    var milliseconds = Int(((interval - Double(seconds)) * 1000).rounded(.down))
    if milliseconds >= 1000 {
      seconds += 1
      milliseconds -= 1000
    }
    var parts = tm()
    gmtime_r(&seconds, &parts)
    return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
      + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
      + ".\(pad(milliseconds, 3))Z"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }
}
