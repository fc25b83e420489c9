import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// ISO 8601 timestamps in UTC with milliseconds (`2025-03-01T08:15:02.042Z`), formatted by hand:
/// cheaper than a date formatter on every log line.
enum LogTimestamp {
  static func format(_ date: Date) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    self.append(date, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the 24 bytes of `date`'s timestamp.
  static func append(_ date: Date, to line: inout [UInt8]) {
    let interval = date.timeIntervalSince1970
    var seconds = time_t(interval.rounded(.down))
    var milliseconds = Int(((interval - Double(seconds)) * 1000).rounded(.down))
    if milliseconds >= 1000 {
      seconds += 1
      milliseconds -= 1000
    }
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func digits(_ value: Int, _ width: Int) {
      var divisor = 1
      for _ in 1 ..< width { divisor *= 10 }
      var value = value
      while divisor > 0 {
        line.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: (value / divisor) % 10))
        value %= divisor * 10
        divisor /= 10
      }
    }
    digits(Int(parts.tm_year) + 1900, 4)
    line.append(UInt8(ascii: "-"))
    digits(Int(parts.tm_mon) + 1, 2)
    line.append(UInt8(ascii: "-"))
    digits(Int(parts.tm_mday), 2)
    line.append(UInt8(ascii: "T"))
    digits(Int(parts.tm_hour), 2)
    line.append(UInt8(ascii: ":"))
    digits(Int(parts.tm_min), 2)
    line.append(UInt8(ascii: ":"))
    digits(Int(parts.tm_sec), 2)
    line.append(UInt8(ascii: "."))
    digits(milliseconds, 3)
    line.append(UInt8(ascii: "Z"))
  }
}
