import Foundation
import Logging
import Synchronization

/// The id that ties together the log lines of one call, across services.
///
/// Callers send it as the `request-id` metadata entry; ``LoggingServerInterceptor`` takes it (or
/// makes one) and binds it to ``current`` while the handler runs, so every logger bootstrapped
/// by ``ServiceLogging`` adds it, and handlers can forward it on outgoing calls.
public enum RequestID {
  /// The metadata key, in requests and in log lines.
  public static let metadataKey = "request-id"

  /// The id of the call the current task serves, if any.
  @TaskLocal public static var current: String?

  /// A fresh id, unique across processes: a lowercase version-4 UUID whose first half is drawn
  /// at random once per process and whose second half counts.
  ///
  /// `UUID()` opens and reads `/dev/urandom` for every id on Linux: about 10 µs of system calls
  /// on each call a gateway forwards. An id only has to be unique, not unguessable.
  public static func generate() -> String {
    let count = Self.counter.add(1, ordering: .relaxed).newValue
    let prefix = Self.processPrefix
    func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
    let bytes: [UInt8] = [
      byte(prefix, 0), byte(prefix, 1), byte(prefix, 2), byte(prefix, 3),
      byte(prefix, 4), byte(prefix, 5), byte(prefix, 6) & 0x0F | 0x40, byte(prefix, 7),
      byte(count, 0) & 0x3F | 0x80, byte(count, 1), byte(count, 2), byte(count, 3),
      byte(count, 4), byte(count, 5), byte(count, 6), byte(count, 7),
    ]
    return Self.uuidText(bytes)
  }

  /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase. Foundation's `uuidString` formats
  /// through `sprintf` on Linux, a measurable share of the gateway's time per call.
  static func uuidText(_ bytes: [UInt8]) -> String {
    String(unsafeUninitializedCapacity: 36) { text in
      var at = 0
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          text[at] = UInt8(ascii: "-")
          at += 1
        }
        text[at] = Self.hexDigits[Int(byte >> 4)]
        text[at + 1] = Self.hexDigits[Int(byte & 0x0F)]
        at += 2
      }
      return at
    }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)
  private static let processPrefix = UInt64.random(in: .min ... .max)
  private static let counter = Atomic<UInt64>(0)

  /// Adds ``current`` to every log line written while it is bound.
  public static let metadataProvider = Logger.MetadataProvider {
    guard let id = RequestID.current else { return [:] }
    return [RequestID.metadataKey: .string(id)]
  }
}
