import BinarioTracing
import GRPCCore
import Synchronization
import Testing
import Tracing
import W3CTraceContext

@testable import BinarioServiceKit

/// A sink that keeps what it is given.
final class CollectingSpanSink: FinishedSpanSink {
  private let collected = Mutex<[FinishedSpan]>([])
  var spans: [FinishedSpan] { self.collected.withLock { $0 } }
  func append(_ span: FinishedSpan) { self.collected.withLock { $0.append(span) } }
}

@Suite("The tracer that records spans for export")
struct RecordingTracerTests {
  let sink = CollectingSpanSink()

  private func context(traceparent: String) -> ServiceContext {
    var context = ServiceContext.topLevel
    var metadata = Metadata()
    metadata.addString(traceparent, forKey: "traceparent")
    PropagatingTracer().extract(metadata, into: &context, using: MetadataExtractor())
    return context
  }

  @Test func aSampledSpanReachesTheSinkOnceWithWhatWasSetOnIt() throws {
    let tracer = RecordingTracer(sink: self.sink)
    let root = tracer.startSpan("root", context: .topLevel, ofKind: .server)
    let child = tracer.startSpan("child", context: root.context, ofKind: .client)
    #expect(root.isRecording && child.isRecording)
    child.attributes["rpc.method"] = "binario.identity.v1.IdentityService/GetMe"
    child.setStatus(SpanStatus(code: .error, message: "UNAVAILABLE"))
    child.end()
    child.end()
    child.attributes["after"] = "the end"
    #expect(!child.isRecording)
    root.end()

    let spans = self.sink.spans
    try #require(spans.count == 2)
    let (ended, parent) = (spans[0], spans[1])
    #expect(ended.operationName == "child" && ended.kind == .client)
    #expect(ended.trace.traceID == parent.trace.traceID)
    #expect(ended.parentSpanID == parent.trace.spanID)
    #expect(parent.parentSpanID == nil)
    #expect(ended.trace.flags.contains(.sampled))
    #expect(ended.attributes.get("rpc.method") == .string("binario.identity.v1.IdentityService/GetMe"))
    #expect(ended.attributes.get("after") == nil)
    #expect(ended.status?.code == .error)
    #expect(ended.endNanoseconds >= ended.startNanoseconds)
    #expect(child.context.traceContext?.spanID == ended.trace.spanID)
  }

  @Test func aCallerThatDidNotSampleIsFollowedAndNothingIsRecorded() throws {
    let tracer = RecordingTracer(sink: self.sink)
    let caller = self.context(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00")
    let span = tracer.startSpan("call", context: caller, ofKind: .server)
    #expect(!span.isRecording)
    span.end()
    #expect(self.sink.spans.isEmpty)
    let trace = try #require(span.context.traceContext)
    #expect(trace.traceID.description == "0af7651916cd43dd8448eb211c80319c")
    #expect(!trace.flags.contains(.sampled))
  }

  @Test func aSampledCallerIsFollowedEvenWhenNewTracesAreNot() throws {
    let tracer = RecordingTracer(sampler: .parentBased(root: .alwaysOff), sink: self.sink)
    let caller = self.context(traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
    tracer.startSpan("call", context: caller, ofKind: .server).end()
    tracer.startSpan("new", context: .topLevel, ofKind: .server).end()
    #expect(self.sink.spans.map(\.operationName) == ["call"])
    #expect(self.sink.spans.first?.parentSpanID?.description == "b7ad6b7169203331")
  }

  @Test func theRatioDecidesByTheTraceIDsLastEightBytes() throws {
    let low = try TraceContext(traceParentHeaderValue: "00-ffffffffffffffff0000000000000001-b7ad6b7169203331-00").traceID
    let high = try TraceContext(traceParentHeaderValue: "00-0000000000000000fffffffffffffff0-b7ad6b7169203331-00").traceID
    let half = TraceSampler.traceIDRatio(0.5)
    #expect(half.samples(traceID: low, parent: nil))
    #expect(!half.samples(traceID: high, parent: nil))
    #expect(TraceSampler.traceIDRatio(1).samples(traceID: high, parent: nil))
    #expect(!TraceSampler.traceIDRatio(0).samples(traceID: low, parent: nil))
    // About the share asked for, over many new traces.
    let sampled = (0 ..< 10_000).filter { _ in TraceSampler.traceIDRatio(0.1).samples(traceID: TraceIdentifiers.traceID(), parent: nil) }
    #expect((800 ... 1200).contains(sampled.count))
  }

  @Test func samplersAreNamedAsOpenTelemetryNamesThem() {
    #expect(TraceSampler(name: "parentbased_traceidratio", argument: "0.1") == .parentBased(root: .traceIDRatio(0.1)))
    #expect(TraceSampler(name: "traceidratio", argument: "7") == .traceIDRatio(1))
    #expect(TraceSampler(name: "always_off", argument: nil) == .alwaysOff)
    #expect(TraceSampler(name: "jaeger_remote", argument: nil) == nil)
  }

  @Test func anErrorIsAnExceptionEvent() throws {
    struct Refused: Error {}
    let tracer = RecordingTracer(sink: self.sink)
    let span = tracer.startSpan("call", context: .topLevel, ofKind: .internal)
    span.recordError(Refused())
    span.end()
    let event = try #require(self.sink.spans.first?.events.first)
    #expect(event.name == "exception")
    #expect(event.attributes.get("exception.type") == .string("Refused"))
  }
}
