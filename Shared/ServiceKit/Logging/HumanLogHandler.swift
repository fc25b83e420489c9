import Foundation
import Logging

/// Writes each event as one line for a person:
/// `2025-03-01T08:15:02.042Z info identity: listening address=127.0.0.1:7001 request-id=7f3c…`.
/// Metadata follows the message as sorted `key=value` pairs; values with spaces, quotes or `=` are
/// quoted.
public struct HumanLogHandler: LogHandler {
  public var logLevel: Logger.Level
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?

  public let label: String
  private let writer: any LogLineWriter
  private let now: @Sendable () -> Date

  public init(
    label: String,
    logLevel: Logger.Level = .info,
    writer: any LogLineWriter = FileDescriptorLogWriter.standardError,
    metadataProvider: Logger.MetadataProvider? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.label = label
    self.logLevel = logLevel
    self.writer = writer
    self.metadataProvider = metadataProvider
    self.now = now
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { self.metadata[key] }
    set { self.metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var line = LogTimestamp.format(self.now())
    line.append(" ")
    line.append(event.level.rawValue)
    line.append(" ")
    line.append(self.label)
    line.append(": ")
    line.append(event.message.description)
    if let error = event.error {
      line.append(" error=")
      line.append(Self.quotedIfNeeded(String(describing: error)))
    }
    for (key, value) in LogFields.merged(handler: self.metadata, provider: self.metadataProvider, event: event.metadata) {
      line.append(" ")
      line.append(key)
      line.append("=")
      line.append(Self.quotedIfNeeded(Self.render(value)))
    }
    self.writer.write(bytes: Array(line.utf8), urgent: event.level >= .warning)
  }

  private static func render(_ value: Logger.MetadataValue) -> String {
    switch value {
    case .string(let string): return string
    case .stringConvertible(let convertible): return convertible.description
    case .array(let elements): return "[" + elements.map(self.render).joined(separator: ", ") + "]"
    case .dictionary(let dictionary):
      return "["
        + dictionary.sorted { $0.key < $1.key }.map { "\($0.key): \(self.render($0.value))" }
        .joined(separator: ", ") + "]"
    }
  }

  private static func quotedIfNeeded(_ value: String) -> String {
    let needsQuotes = value.isEmpty || value.contains { $0.isWhitespace || $0 == "\"" || $0 == "=" }
    guard needsQuotes else { return value }
    return JSONLineEncoding.quoted(value)
  }
}
