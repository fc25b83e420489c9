import BinarioTracing
import GRPCCore
import Tracing

/// Ending a call's span the way the RPC semantic conventions ask.
enum CallSpan {
  /// Sets the status code attribute and, for a failure, the span's error status, then ends it.
  ///
  /// A client span is an error for any code but `OK`; a server span only for the codes that mean
  /// the server failed (`UNKNOWN`, `DEADLINE_EXCEEDED`, `UNIMPLEMENTED`, `INTERNAL`,
  /// `UNAVAILABLE`, `DATA_LOSS`): a refused argument is the caller's error, not the server's.
  static func end(_ span: any Span, outcome: RPCOutcome, kind: SpanKind) {
    if span.isRecording {
      span.attributes[SpanAttributeName.rpcStatusCode] = outcome.name
      if Self.isError(outcome.code, kind: kind) {
        span.setStatus(SpanStatus(code: .error, message: outcome.name))
      }
    }
    span.end()
  }

  static func isError(_ code: Status.Code, kind: SpanKind) -> Bool {
    switch (code, kind) {
    case (.ok, _): return false
    case (.unknown, _), (.deadlineExceeded, _), (.unimplemented, _), (.internalError, _), (.unavailable, _),
      (.dataLoss, _):
      return true
    case (_, .server): return false
    default: return true
    }
  }
}
