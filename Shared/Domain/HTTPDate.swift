import Foundation

/// HTTP's date format (RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`): what a
/// Last-Modified header says and an If-Modified-Since header is compared with, to the second.
public enum HTTPDate {
  public static func string(_ date: Date) -> String { formatter().string(from: date) }

  /// `nil` for anything but an IMF-fixdate (the obsolete forms are not accepted).
  public static func date(_ text: String) -> Date? { formatter().date(from: text) }

  private static func formatter() -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter
  }
}
