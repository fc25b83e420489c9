import Foundation
import Logging

/// Writes each event as one JSON object on one line:
/// `{"timestamp":"2025-03-01T08:15:02.042Z","level":"info","label":"identity","message":"…",…}`
/// followed by `error` (if the event has one) and the metadata, flattened to top-level fields
/// (nested dictionaries as dotted keys). A metadata key equal to one of the fixed fields is
/// written as `metadata.<key>` so it cannot shadow them.
public struct JSONLogHandler: LogHandler {
  public var logLevel: Logger.Level
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?

  public let label: String
  private let writer: any LogLineWriter
  private let now: @Sendable () -> Date

  private static let fixedFields: Set<String> = ["timestamp", "level", "label", "message", "error"]

  /// - Parameter now: The clock stamped on each line (tests pass a fixed one).
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
    var line = "{\"timestamp\":\""
    line.append(LogTimestamp.format(self.now()))
    line.append("\",\"level\":\"")
    line.append(event.level.rawValue)
    line.append("\",\"label\":")
    JSONLineEncoding.appendString(self.label, to: &line)
    line.append(",\"message\":")
    JSONLineEncoding.appendString(event.message.description, to: &line)
    if let error = event.error {
      line.append(",\"error\":")
      JSONLineEncoding.appendString(String(describing: error), to: &line)
    }
    let merged = LogFields.merge(handler: self.metadata, provider: self.metadataProvider, event: event.metadata)
    for (key, value) in LogFields.flatten(merged) {
      line.append(",")
      JSONLineEncoding.appendString(Self.fixedFields.contains(key) ? "metadata." + key : key, to: &line)
      line.append(":")
      JSONLineEncoding.appendValue(value, to: &line)
    }
    line.append("}")
    self.writer.write(line: line)
  }
}
