import Tracing
import W3CTraceContext

/// The tracer a process runs when no OTLP endpoint is set: its spans record nothing, but each
/// carries a W3C trace context, so trace and span ids reach every log line and every outgoing
/// call exactly as they do when traces are exported.
///
/// - A call that arrives with a well-formed `traceparent` continues that trace (its flags and
///   `tracestate` pass on unchanged); a malformed or absent one starts a new trace. A bad header
///   is never an error: tracing must not refuse a call.
/// - Each span gets a new span id; its parent's trace id, flags and state.
public struct PropagatingTracer: Tracer {
  public init() {}

  public func startSpan<Instant: TracerInstant>(
    _ operationName: String,
    context: @autoclosure () -> ServiceContext,
    ofKind kind: SpanKind,
    at instant: @autoclosure () -> Instant,
    function: String,
    file fileID: String,
    line: UInt
  ) -> PropagatedSpan {
    var context = context()
    let parent = context.traceContext
    context.traceContext = TraceContext(
      traceID: parent?.traceID ?? TraceIdentifiers.traceID(),
      spanID: TraceIdentifiers.spanID(),
      flags: parent?.flags ?? [],
      state: parent?.state ?? TraceState()
    )
    return PropagatedSpan(operationName: operationName, context: context)
  }

  public func forceFlush() {}

  public func extract<Carrier, Extract: Extractor>(
    _ carrier: Carrier,
    into context: inout ServiceContext,
    using extractor: Extract
  ) where Extract.Carrier == Carrier {
    guard let parent = extractor.extract(key: TraceHeaders.traceParent, from: carrier) else { return }
    let state = extractor.extract(key: TraceHeaders.traceState, from: carrier)
    if let trace = try? TraceContext(traceParentHeaderValue: parent, traceStateHeaderValue: state) {
      context.traceContext = trace
    } else if let trace = try? TraceContext(traceParentHeaderValue: parent) {
      // A malformed tracestate is dropped on its own; the parent still holds.
      context.traceContext = trace
    }
  }

  public func inject<Carrier, Inject: Injector>(
    _ context: ServiceContext,
    into carrier: inout Carrier,
    using injector: Inject
  ) where Inject.Carrier == Carrier {
    guard let trace = context.traceContext else { return }
    injector.inject(trace.traceParentHeaderValue, forKey: TraceHeaders.traceParent, into: &carrier)
    if let state = trace.traceStateHeaderValue {
      injector.inject(state, forKey: TraceHeaders.traceState, into: &carrier)
    }
  }
}

/// A span of ``PropagatingTracer``: a trace context and nothing recorded.
public struct PropagatedSpan: Span {
  public let context: ServiceContext
  public var operationName: String {
    get { self.storedName }
    nonmutating set {}
  }
  private let storedName: String

  init(operationName: String, context: ServiceContext) {
    self.storedName = operationName
    self.context = context
  }

  public var attributes: SpanAttributes {
    get { [:] }
    nonmutating set {}
  }
  public var isRecording: Bool { false }
  public func setStatus(_ status: SpanStatus) {}
  public func addEvent(_ event: SpanEvent) {}
  public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {}
  public func addLink(_ link: SpanLink) {}
  public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {}
}
