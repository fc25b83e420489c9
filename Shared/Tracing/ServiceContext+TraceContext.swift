import Tracing
import W3CTraceContext

extension ServiceContext {
  /// The W3C trace context of the current span, as ``PropagatingTracer`` keeps it.
  public var traceContext: TraceContext? {
    get { self[TraceContextKey.self] }
    set { self[TraceContextKey.self] = newValue }
  }
}

private enum TraceContextKey: ServiceContextKey {
  typealias Value = TraceContext
  static let nameOverride: String? = "binario-trace-context"
}
