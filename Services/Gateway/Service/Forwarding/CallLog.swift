import BinarioServiceKit
import BinarioTransport
import Logging

/// The log line and metrics of one call at the gateway, with its request id, method and
/// upstream on every line.
struct CallLog: Sendable {
  let logger: Logger
  let metrics: GatewayMetrics?
  let requestID: String
  let method: String
  /// The upstream the call goes to; `gateway` for calls the gateway answers itself.
  let upstream: String
  let started: ContinuousClock.Instant

  init(logger: Logger, metrics: GatewayMetrics?, requestID: String, method: String, upstream: String) {
    self.logger = logger
    self.metrics = metrics
    self.requestID = requestID
    self.method = method
    self.upstream = upstream
    self.started = .now
  }

  /// The call is over with `code`: logged at debug when OK, at info otherwise.
  func ended(code: Int32, message: String) {
    let duration = ContinuousClock.now - self.started
    self.metrics?.record(upstream: self.upstream, code: code, duration: duration)
    self.logger.log(
      level: code == WireStatusCode.ok ? .debug : .info,
      "call ended",
      metadata: self.metadata(code: code, message: message, duration: duration)
    )
  }

  /// Another line about the call.
  func log(_ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, _ extra: Logger.Metadata = [:]) {
    self.logger.log(level: level, message(), metadata: self.baseMetadata.merging(extra) { _, new in new })
  }

  private var baseMetadata: Logger.Metadata {
    [
      GatewayRequestID.serviceKitKey: .string(self.requestID),
      "rpc.method": .string(self.method),
      "upstream": .string(self.upstream),
    ]
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
