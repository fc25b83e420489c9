import BinarioTracing
import GRPCCore
import Tracing

/// A span for every call the server handles, continuing the caller's trace.
///
/// It reads `traceparent`/`tracestate` from the request metadata (a malformed value starts a new
/// trace, never an error), starts a server span named for the method, binds it as the current
/// `ServiceContext` while the handler and its response producer run (so log lines, database
/// transactions and onward calls belong to it), and ends it with the call's status. It must run
/// before the logging interceptor so that the call's own log line carries the span's ids.
public struct TracingServerInterceptor: ServerInterceptor {
  private let tracer: any Tracer

  /// - Parameter tracer: By default the one bootstrapped for the process (``ServiceTracing``).
  public init(tracer: any Tracer = InstrumentationSystem.tracer) {
    self.tracer = tracer
  }

  public func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    try await ServerCallPipeline(tracing: self).intercept(request: request, context: context, next: next)
  }

  /// The call's span, started, and the context that carries it (``ServerCallPipeline`` binds it
  /// and ends the span with the call's status).
  func startSpan(metadata: Metadata, context: ServerContext) -> (span: any Span, context: ServiceContext) {
    var parent = ServiceContext.current ?? .topLevel
    self.tracer.extract(metadata, into: &parent, using: MetadataExtractor())
    let method = context.descriptor.fullyQualifiedMethod
    let span = self.tracer.startSpan(method, context: parent, ofKind: .server)
    if span.isRecording {
      // Built here and given whole: one lock on the span, not a read and a write.
      var attributes = SpanAttributes()
      attributes[SpanAttributeName.rpcSystem] = "grpc"
      attributes[SpanAttributeName.rpcMethod] = method
      attributes[SpanAttributeName.clientAddress] = context.remotePeer
      if let peer = context.binarioPeerIdentity?.uri {
        attributes[SpanAttributeName.peerIdentity] = peer
      }
      span.attributes = attributes
    }
    return (span, span.context)
  }
}
