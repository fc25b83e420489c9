import Foundation
import Logging

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

  /// A fresh random id.
  public static func generate() -> String {
    UUID().uuidString.lowercased()
  }

  /// Adds ``current`` to every log line written while it is bound.
  public static let metadataProvider = Logger.MetadataProvider {
    guard let id = RequestID.current else { return [:] }
    return [RequestID.metadataKey: .string(id)]
  }
}
