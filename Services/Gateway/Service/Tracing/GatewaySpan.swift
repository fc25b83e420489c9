import BinarioServiceKit
import BinarioTracing
import BinarioTransport
import GRPCCore
import Tracing

/// The gateway's span for each call, whichever front door it came through.
enum GatewaySpan {
  /// A server span named for the method (`binario.identity.v1.Identity/GetMe`), continuing the
  /// client's `traceparent` when it is well formed and starting a new trace otherwise.
  static func start(for call: any GatewayClientCall, tracer: any Tracer) -> any Span {
    var parent = ServiceContext.topLevel
    tracer.extract(call.metadata, into: &parent, using: WireMetadataExtractor())
    let method = call.method.hasPrefix("/") ? String(call.method.dropFirst()) : call.method
    let span = tracer.startSpan(method, context: parent, ofKind: .server)
    if span.isRecording {
      span.updateAttributes { attributes in
        attributes[SpanAttributeName.rpcSystem] = "grpc"
        attributes[SpanAttributeName.rpcMethod] = method
        attributes[SpanAttributeName.clientAddress] = ClientAddress.ip(fromPeerDescription: call.peer.remoteAddress)
      }
    }
    return span
  }

  /// Ends `span` with the call's status; an error status only for codes that mean a server
  /// failed (``CallSpan/isServerFault(_:)``), as for any server span.
  static func end(_ span: any Span, code: Int32, requestID: String, upstream: String) {
    if span.isRecording {
      span.updateAttributes { attributes in
        attributes[SpanAttributeName.rpcStatusCode] = StatusCodeName.of(code)
        attributes[SpanAttributeName.requestID] = requestID
        attributes[SpanAttributeName.upstream] = upstream
      }
      if let status = Status.Code(rawValue: Int(code)), CallSpan.isServerFault(status) {
        span.setStatus(SpanStatus(code: .error, message: StatusCodeName.of(code)))
      }
    }
    span.end()
  }
}
