import BinarioTracing
import GRPCCore
import Tracing

/// Ending a call's span the way the RPC semantic conventions ask.
public enum CallSpan {
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
    code != .ok && (kind != .server || Self.isServerFault(code))
  }

  /// The codes that mean the server failed: a server span's error status (the gateway's too).
  public static func isServerFault(_ code: Status.Code) -> Bool {
    switch code {
    case .unknown, .deadlineExceeded, .unimplemented, .internalError, .unavailable, .dataLoss: return true
    default: return false
    }
  }
}
