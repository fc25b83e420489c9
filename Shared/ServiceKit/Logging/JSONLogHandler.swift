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
    var line: [UInt8] = []
    line.reserveCapacity(512)
    line.append(contentsOf: #"{"timestamp":""#.utf8)
    LogTimestamp.append(self.now(), to: &line)
    line.append(contentsOf: #"","level":""#.utf8)
    line.append(contentsOf: event.level.rawValue.utf8)
    line.append(contentsOf: #"","label":"#.utf8)
    JSONLineEncoding.appendString(self.label, to: &line)
    line.append(contentsOf: #","message":"#.utf8)
    JSONLineEncoding.appendString(event.message.description, to: &line)
    if let error = event.error {
      line.append(contentsOf: #","error":"#.utf8)
      JSONLineEncoding.appendString(String(describing: error), to: &line)
    }
    for (key, value) in LogFields.merged(handler: self.metadata, provider: self.metadataProvider, event: event.metadata) {
      line.append(UInt8(ascii: ","))
      JSONLineEncoding.appendString(Self.fixedFields.contains(key) ? "metadata." + key : key, to: &line)
      line.append(UInt8(ascii: ":"))
      JSONLineEncoding.appendValue(value, to: &line)
    }
    line.append(UInt8(ascii: "}"))
    self.writer.write(bytes: line, urgent: event.level >= .warning)
  }
}
