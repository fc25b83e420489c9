import Logging
import Tracing

/// The log fields that tie a line to its trace: `trace_id` and `span_id` (lowercase hex, as W3C
/// writes them) and `trace_flags` (`1`: sampled), the names and forms swift-otel's logging
/// metadata provider uses, so lines look alike whether traces are exported or not.
public enum TraceLogMetadata {
  public static let traceIDKey = "trace_id"
  public static let spanIDKey = "span_id"
  public static let traceFlagsKey = "trace_flags"

  /// The fields of `context`'s span, as ``PropagatingTracer`` keeps it; empty outside one.
  public static func fields(of context: ServiceContext?) -> Logger.Metadata {
    guard let trace = context?.traceContext else { return [:] }
    return [
      Self.traceIDKey: .string(trace.traceID.description),
      Self.spanIDKey: .string(trace.spanID.description),
      Self.traceFlagsKey: .string(String(trace.flags.rawValue)),
    ]
  }
}
