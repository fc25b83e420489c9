/// The W3C Trace Context fields, as metadata keys and HTTP header names (lowercase, as gRPC and
/// HTTP/2 send them).
public enum TraceHeaders {
  public static let traceParent = "traceparent"
  public static let traceState = "tracestate"
}
