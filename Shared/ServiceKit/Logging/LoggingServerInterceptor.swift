import GRPCCore
import Logging

/// Logs each call once it ends (method, status code, duration) with its request id.
///
/// The id comes from the `request-id` request metadata or is generated; it is added to the
/// request metadata the handler sees, echoed in the response's initial metadata, and bound to
/// ``RequestID/current`` while the handler and its response producer run.
/// Successful calls log at `successLevel` and failed ones at `failureLevel` (both `info` by
/// default: one line per call, the service's access log), except server faults (`INTERNAL`,
/// `UNKNOWN`, `DATA_LOSS`) at `.error`. `--log-level notice` keeps only the faults.
public struct LoggingServerInterceptor: ServerInterceptor {
  private let logger: Logger
  private let successLevel: Logger.Level
  private let failureLevel: Logger.Level

  public init(logger: Logger, successLevel: Logger.Level = .info, failureLevel: Logger.Level = .info) {
    self.logger = logger
    self.successLevel = successLevel
    self.failureLevel = failureLevel
  }

  public func intercept<Input: Sendable, Output: Sendable>(
    request: StreamingServerRequest<Input>,
    context: ServerContext,
    next: @Sendable (StreamingServerRequest<Input>, ServerContext) async throws -> StreamingServerResponse<Output>
  ) async throws -> StreamingServerResponse<Output> {
    try await ServerCallPipeline(logging: self).intercept(request: request, context: context, next: next)
  }

  /// The call's request id: the caller's, or a new one added to `metadata` for the handler.
  func requestID(taking metadata: inout Metadata) -> String {
    if let given = metadata[stringValues: RequestID.metadataKey].first(where: { !$0.isEmpty }) {
      return given
    }
    let generated = RequestID.generate()
    metadata.addString(generated, forKey: RequestID.metadataKey)
    return generated
  }

  /// The call's one line, once its status is known.
  func logCallEnded(requestID: String, context: ServerContext, outcome: RPCOutcome, elapsed: Duration) {
    let level: Logger.Level
    switch outcome.code {
    case .ok: level = self.successLevel
    case .internalError, .unknown, .dataLoss: level = .error
    default: level = self.failureLevel
    }
    self.logger.log(
      level: level,
      "call ended",
      metadata: [
        RequestID.metadataKey: .string(requestID),
        "rpc.method": .string(context.descriptor.fullyQualifiedMethod),
        "rpc.peer": .string(context.remotePeer),
        "rpc.code": .string(outcome.name),
        "rpc.duration_ms": .stringConvertible(Self.milliseconds(elapsed)),
      ]
    )
  }

  private static func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return (Double(seconds) * 1000 + Double(attoseconds) / 1e15).rounded(toPlaces: 3)
  }
}

extension Double {
  fileprivate func rounded(toPlaces places: Int) -> Double {
    var scale = 1.0
    for _ in 0 ..< places { scale *= 10 }
    return (self * scale).rounded() / scale
  }
}
