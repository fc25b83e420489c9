import BinarioServiceKit
import BinarioTracing
import GRPCCore
import Testing
import Tracing
import W3CTraceContext

@Suite("The tracer that propagates without recording")
struct PropagatingTracerTests {
  let tracer = PropagatingTracer()

  private func extracted(_ metadata: Metadata) -> ServiceContext {
    var context = ServiceContext.topLevel
    self.tracer.extract(metadata, into: &context, using: MetadataExtractor())
    return context
  }

  @Test func tracestateTravelsWithTheParent() throws {
    let context = self.extracted([
      "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      "tracestate": "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
    ])
    let span = self.tracer.startSpan("child", context: context, ofKind: .server)
    #expect(!span.isRecording)
    var onward: Metadata = [:]
    self.tracer.inject(span.context, into: &onward, using: MetadataInjector())
    let parent = try #require(onward[stringValues: "traceparent"].first(where: { _ in true }))
    #expect(parent.hasPrefix("00-0af7651916cd43dd8448eb211c80319c-"))
    #expect(parent.hasSuffix("-01"))
    #expect(!parent.contains("b7ad6b7169203331"))
    #expect(Array(onward[stringValues: "tracestate"]) == ["rojo=00f067aa0ba902b7, congo=t61rcWkgMzE"])
  }

  @Test func aMalformedTracestateIsDroppedAndTheParentKept() throws {
    let context = self.extracted([
      "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00",
      "tracestate": "=,,not a state",
    ])
    let trace = try #require(context.traceContext)
    #expect(trace.traceID.description == "0af7651916cd43dd8448eb211c80319c")
    #expect(trace.state.isEmpty)
  }

  @Test func injectingReplacesWhatTheMetadataHad() throws {
    let span = self.tracer.startSpan("root", context: .topLevel, ofKind: .client)
    var metadata: Metadata = ["traceparent": "00-11111111111111111111111111111111-2222222222222222-01"]
    self.tracer.inject(span.context, into: &metadata, using: MetadataInjector())
    let values = Array(metadata[stringValues: "traceparent"])
    #expect(values.count == 1)
    #expect(values.first == span.context.traceContext?.traceParentHeaderValue)
    #expect(metadata[stringValues: "tracestate"].first(where: { _ in true }) == nil)
  }

  @Test func childrenShareTheTraceAndNeverASpanID() throws {
    let root = self.tracer.startSpan("root", context: .topLevel, ofKind: .server)
    let rootTrace = try #require(root.context.traceContext)
    var spanIDs: Set<String> = [rootTrace.spanID.description]
    for _ in 0 ..< 1000 {
      let child = self.tracer.startSpan("child", context: root.context, ofKind: .internal)
      let trace = try #require(child.context.traceContext)
      #expect(trace.traceID == rootTrace.traceID)
      spanIDs.insert(trace.spanID.description)
    }
    #expect(spanIDs.count == 1001)
    let otherRoot = self.tracer.startSpan("root", context: .topLevel, ofKind: .server)
    #expect(otherRoot.context.traceContext?.traceID != rootTrace.traceID)
  }
}
