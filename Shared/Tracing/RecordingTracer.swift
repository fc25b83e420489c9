import Synchronization
import Tracing
import W3CTraceContext

/// The tracer a process runs when traces are exported: ``PropagatingTracer``'s trace context,
/// and for every sampled span a record handed to a ``FinishedSpanSink`` when the span ends.
///
/// A span costs one small object while it is open and one append under a lock when it ends:
/// no task, no async stream, no actor. The sink (an exporter's queue) batches and sends on its
/// own schedule. Unsampled spans are ``PropagatedSpan``s, which record nothing.
public struct RecordingTracer: Tracer {
  private let sampler: TraceSampler
  private let sink: any FinishedSpanSink
  private let propagation = PropagatingTracer()

  public init(sampler: TraceSampler = .parentBased(root: .alwaysOn), sink: any FinishedSpanSink) {
    self.sampler = sampler
    self.sink = sink
  }

  public func startSpan<Instant: TracerInstant>(
    _ operationName: String,
    context: @autoclosure () -> ServiceContext,
    ofKind kind: SpanKind,
    at instant: @autoclosure () -> Instant,
    function: String,
    file fileID: String,
    line: UInt
  ) -> TracedSpan {
    var context = context()
    let parent = context.traceContext
    let traceID = parent?.traceID ?? TraceIdentifiers.traceID()
    var flags = parent?.flags ?? []
    if self.sampler.samples(traceID: traceID, parent: parent) {
      flags.insert(.sampled)
    } else {
      flags.remove(.sampled)
    }
    let trace = TraceContext(
      traceID: traceID,
      spanID: TraceIdentifiers.spanID(),
      flags: flags,
      state: parent?.state ?? TraceState()
    )
    context.traceContext = trace
    guard flags.contains(.sampled) else {
      return .propagated(PropagatedSpan(operationName: operationName, context: context))
    }
    return .recording(
      RecordingSpan(
        operationName: operationName,
        kind: kind,
        context: context,
        trace: trace,
        parentSpanID: parent?.spanID,
        startNanoseconds: instant().nanosecondsSinceEpoch,
        sink: self.sink
      )
    )
  }

  public func forceFlush() {}

  public func extract<Carrier, Extract: Extractor>(
    _ carrier: Carrier,
    into context: inout ServiceContext,
    using extractor: Extract
  ) where Extract.Carrier == Carrier {
    self.propagation.extract(carrier, into: &context, using: extractor)
  }

  public func inject<Carrier, Inject: Injector>(
    _ context: ServiceContext,
    into carrier: inout Carrier,
    using injector: Inject
  ) where Inject.Carrier == Carrier {
    self.propagation.inject(context, into: &carrier, using: injector)
  }
}

/// A ``RecordingTracer``'s span: recorded when sampled, only propagated when not. An enum, so
/// that an unsampled span costs no allocation.
public enum TracedSpan: Span {
  case propagated(PropagatedSpan)
  case recording(RecordingSpan)

  private var span: any Span {
    switch self {
    case .propagated(let span): return span
    case .recording(let span): return span
    }
  }

  public var context: ServiceContext { self.span.context }
  public var operationName: String {
    get { self.span.operationName }
    nonmutating set { self.span.operationName = newValue }
  }
  public var attributes: SpanAttributes {
    get { self.span.attributes }
    nonmutating set { self.span.attributes = newValue }
  }
  public var isRecording: Bool { self.span.isRecording }
  public func setStatus(_ status: SpanStatus) { self.span.setStatus(status) }
  public func addEvent(_ event: SpanEvent) { self.span.addEvent(event) }
  public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
    self.span.recordError(error, attributes: attributes, at: instant())
  }
  public func addLink(_ link: SpanLink) { self.span.addLink(link) }
  public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) { self.span.end(at: instant()) }
}

/// Where a ``RecordingTracer``'s spans go when they end. `append` is called on the thread that
/// ends the span, inside calls: it must not wait.
public protocol FinishedSpanSink: Sendable {
  func append(_ span: FinishedSpan)
}

/// A span as it ended: what an exporter sends.
public struct FinishedSpan: Sendable {
  /// Another span this one points at (OpenTelemetry's links).
  public struct Link: Sendable {
    public var trace: TraceContext
    public var attributes: SpanAttributes

    public init(trace: TraceContext, attributes: SpanAttributes) {
      self.trace = trace
      self.attributes = attributes
    }
  }

  public var operationName: String
  public var kind: SpanKind
  /// Its own trace id, span id, flags and state.
  public var trace: TraceContext
  /// Absent for a trace's root span.
  public var parentSpanID: SpanID?
  public var startNanoseconds: UInt64
  public var endNanoseconds: UInt64
  public var attributes: SpanAttributes
  public var status: SpanStatus?
  public var events: [SpanEvent]
  public var links: [Link]

  public init(
    operationName: String,
    kind: SpanKind,
    trace: TraceContext,
    parentSpanID: SpanID?,
    startNanoseconds: UInt64,
    endNanoseconds: UInt64,
    attributes: SpanAttributes = [:],
    status: SpanStatus? = nil,
    events: [SpanEvent] = [],
    links: [Link] = []
  ) {
    self.operationName = operationName
    self.kind = kind
    self.trace = trace
    self.parentSpanID = parentSpanID
    self.startNanoseconds = startNanoseconds
    self.endNanoseconds = endNanoseconds
    self.attributes = attributes
    self.status = status
    self.events = events
    self.links = links
  }
}

/// A sampled span while it is open. Its mutable parts sit behind one lock: handlers may set
/// attributes from any task.
public final class RecordingSpan: Span {
  private struct Open {
    var operationName: String
    var attributes: SpanAttributes = [:]
    var status: SpanStatus?
    var events: [SpanEvent] = []
    var links: [FinishedSpan.Link] = []
    var ended = false
  }

  public let context: ServiceContext
  private let kind: SpanKind
  private let trace: TraceContext
  private let parentSpanID: SpanID?
  private let startNanoseconds: UInt64
  private let sink: any FinishedSpanSink
  private let open: Mutex<Open>

  init(
    operationName: String,
    kind: SpanKind,
    context: ServiceContext,
    trace: TraceContext,
    parentSpanID: SpanID?,
    startNanoseconds: UInt64,
    sink: any FinishedSpanSink
  ) {
    self.context = context
    self.kind = kind
    self.trace = trace
    self.parentSpanID = parentSpanID
    self.startNanoseconds = startNanoseconds
    self.sink = sink
    self.open = Mutex(Open(operationName: operationName))
  }

  public var operationName: String {
    get { self.open.withLock { $0.operationName } }
    set { self.open.withLock { if !$0.ended { $0.operationName = newValue } } }
  }

  public var attributes: SpanAttributes {
    get { self.open.withLock { $0.attributes } }
    set { self.open.withLock { if !$0.ended { $0.attributes = newValue } } }
  }

  public var isRecording: Bool { self.open.withLock { !$0.ended } }

  /// As OpenTelemetry asks: `ok` is final, and `unset` never replaces a status already set.
  public func setStatus(_ status: SpanStatus) {
    self.open.withLock { open in
      guard !open.ended, open.status?.code != .ok else { return }
      open.status = status
    }
  }

  public func addEvent(_ event: SpanEvent) {
    self.open.withLock { if !$0.ended { $0.events.append(event) } }
  }

  public func recordError<Instant: TracerInstant>(
    _ error: any Error,
    attributes: SpanAttributes,
    at instant: @autoclosure () -> Instant
  ) {
    var attributes = attributes
    attributes["exception.type"] = String(describing: type(of: error))
    attributes["exception.message"] = String(describing: error)
    self.addEvent(SpanEvent(name: "exception", at: instant(), attributes: attributes))
  }

  public func addLink(_ link: SpanLink) {
    guard let trace = link.context.traceContext else { return }
    self.open.withLock { if !$0.ended { $0.links.append(FinishedSpan.Link(trace: trace, attributes: link.attributes)) } }
  }

  public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
    let end = instant().nanosecondsSinceEpoch
    let finished: FinishedSpan? = self.open.withLock { open in
      guard !open.ended else { return nil }
      open.ended = true
      return FinishedSpan(
        operationName: open.operationName,
        kind: self.kind,
        trace: self.trace,
        parentSpanID: self.parentSpanID,
        startNanoseconds: self.startNanoseconds,
        endNanoseconds: max(end, self.startNanoseconds),
        attributes: open.attributes,
        status: open.status,
        events: open.events,
        links: open.links
      )
    }
    if let finished { self.sink.append(finished) }
  }
}
