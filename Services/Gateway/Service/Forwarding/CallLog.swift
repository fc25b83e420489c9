import BinarioServiceKit
import BinarioTracing
import BinarioTransport
import Logging
import Tracing

/// The log lines, metrics and span of one call at the gateway, with its request id, method,
/// upstream, trace and span ids on every line.
struct CallLog: Sendable {
  let logger: Logger
  let metrics: GatewayMetrics?
  let door: GatewayDoor
  let requestID: String
  let method: String
  /// The upstream the call goes to; `gateway` for calls the gateway answers itself.
  let upstream: String
  let started: ContinuousClock.Instant
  /// The call's server span at the gateway, ended by ``ended(code:message:)``.
  let span: any Span
  /// The span's log fields, taken once: gateway code runs on event loops, outside any task
  /// that could carry the span as its `ServiceContext`.
  private let traceFields: Logger.Metadata

  init(logger: Logger, metrics: GatewayMetrics?, door: GatewayDoor, requestID: String, method: String, upstream: String, span: any Span) {
    self.logger = logger
    self.metrics = metrics
    self.door = door
    self.requestID = requestID
    self.method = method
    self.upstream = upstream
    self.started = .now
    self.span = span
    self.traceFields = ServiceContext.$current.withValue(span.context) { ServiceLogging.metadataProvider.get() }
  }

  /// The call is over with `code`: one line at info (the gateway's access log), its metrics, and
  /// the end of its span.
  func ended(code: Int32, message: String) {
    let duration = ContinuousClock.now - self.started
    self.metrics?.record(
      door: self.door,
      upstream: self.upstream,
      code: code,
      duration: GatewayCallForwarder.streamingMethods.contains(self.method) ? nil : duration
    )
    self.logger.log(
      level: .info,
      "call ended",
      metadata: self.metadata(code: code, message: message, duration: duration)
    )
    GatewaySpan.end(self.span, code: code, requestID: self.requestID, upstream: self.upstream)
  }

  /// Another line about the call.
  func log(_ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, _ extra: Logger.Metadata = [:]) {
    self.logger.log(level: level, message(), metadata: self.baseMetadata.merging(extra) { _, new in new })
  }

  private var baseMetadata: Logger.Metadata {
    var metadata = self.traceFields
    metadata[GatewayRequestID.serviceKitKey] = .string(self.requestID)
    metadata["rpc.method"] = .string(self.method)
    metadata["upstream"] = .string(self.upstream)
    return metadata
  }

  private func metadata(code: Int32, message: String, duration: Duration) -> Logger.Metadata {
    var metadata = self.baseMetadata
    metadata["rpc.code"] = .string(StatusCodeName.of(code))
    if code != WireStatusCode.ok, !message.isEmpty { metadata["rpc.message"] = .string(message) }
    let (seconds, attoseconds) = duration.components
    metadata["rpc.duration_ms"] = .stringConvertible(Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000)
    return metadata
  }
}
