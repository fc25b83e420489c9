import BinarioTracing
import Logging
import Tracing

/// Installs the process-wide log handler from the configuration.
public enum ServiceLogging {
  /// A handler in `format` at `level`; what ``bootstrap(level:format:writer:)`` installs, and
  /// what tests construct directly.
  public static func makeHandler(
    label: String,
    level: Logger.Level,
    format: LogFormat,
    writer: any LogLineWriter = FileDescriptorLogWriter.standardError,
    metadataProvider: Logger.MetadataProvider? = ServiceLogging.metadataProvider
  ) -> any LogHandler {
    switch format {
    case .human:
      return HumanLogHandler(label: label, logLevel: level, writer: writer, metadataProvider: metadataProvider)
    case .json:
      return JSONLogHandler(label: label, logLevel: level, writer: writer, metadataProvider: metadataProvider)
    }
  }

  /// Bootstraps swift-log's `LoggingSystem`. swift-log allows this once per process: call it from
  /// `main` (``ServiceRunner/run(options:serviceName:environment:transport:services:)`` does), never from tests.
  public static func bootstrap(
    level: Logger.Level,
    format: LogFormat,
    writer: any LogLineWriter = FileDescriptorLogWriter.standardError
  ) {
    LoggingSystem.bootstrap(
      { label, provider in
        Self.makeHandler(label: label, level: level, format: format, writer: writer, metadataProvider: provider)
      },
      metadataProvider: Self.metadataProvider
    )
  }

  /// What every line written inside a call gets: its request id, and its trace and span ids
  /// (`trace_id`, `span_id`, `trace_flags`), whichever tracer the process runs (``ServiceTracing``).
  /// One provider, not a multiplex of three: each would build and merge a dictionary per line.
  public static let metadataProvider = Logger.MetadataProvider {
    let context = ServiceContext.current
    var fields = TraceLogMetadata.fields(of: context)
    if let requestID = RequestID.current { fields[RequestID.metadataKey] = .string(requestID) }
    return fields
  }
}
