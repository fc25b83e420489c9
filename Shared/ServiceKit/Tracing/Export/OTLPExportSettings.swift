import BinarioTracing
import Foundation

/// How spans are exported, from `--otlp-endpoint` and OpenTelemetry's own environment variables
/// (which win, as in every OpenTelemetry SDK): the endpoint, protocol, headers and timeout of
/// `OTEL_EXPORTER_OTLP_*`, the batching of `OTEL_BSP_*`, `OTEL_TRACES_SAMPLER(_ARG)`,
/// `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`.
public struct OTLPExportSettings: Sendable {
  /// OTLP's three encodings.
  public enum WireProtocol: String, Sendable, Equatable {
    case httpProtobuf = "http/protobuf"
    case httpJSON = "http/json"
    case grpc
  }

  /// For HTTP the traces URL itself (`…/v1/traces`); for gRPC the collector's base URL.
  public var endpoint: String
  public var wireProtocol: WireProtocol = .httpProtobuf
  public var headers: [(name: String, value: String)] = []
  /// How long one export may take before it is given up (`OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s).
  public var timeout: Duration = .seconds(10)
  /// How long a span may wait in the queue before its batch is sent (`OTEL_BSP_SCHEDULE_DELAY`).
  public var scheduleDelay: Duration = .seconds(5)
  /// Spans held at most; more are dropped and counted (`OTEL_BSP_MAX_QUEUE_SIZE`).
  public var maxQueueSize = 2048
  /// Spans per export at most; a full batch is sent at once (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`).
  public var maxExportBatchSize = 512
  public var sampler: TraceSampler = .parentBased(root: .alwaysOn)
  /// `service.name` first, then `OTEL_RESOURCE_ATTRIBUTES`' pairs.
  public var resource: [(key: String, value: String)] = []

  /// The settings for `serviceName` exporting to `base` (a collector's base URL, from the flag
  /// or `OTEL_EXPORTER_OTLP_ENDPOINT`), with the environment's variables applied.
  ///
  /// - Throws: ``ConfigurationError`` naming the variable whose value it cannot use.
  public static func from(base: String, serviceName: String, environment: [String: String]) throws -> Self {
    let protocolName = environment["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] ?? environment["OTEL_EXPORTER_OTLP_PROTOCOL"]
    let wireProtocol =
      try protocolName.map { name in
        guard let value = WireProtocol(rawValue: name) else {
          throw Self.invalid("OTEL_EXPORTER_OTLP_PROTOCOL", name, "use http/protobuf, http/json or grpc")
        }
        return value
      } ?? .httpProtobuf
    // A traces endpoint is used as it is; a base endpoint gets OTLP/HTTP's traces path.
    let endpoint: String
    if let traces = environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"], !traces.isEmpty {
      endpoint = traces
    } else {
      let base = environment["OTEL_EXPORTER_OTLP_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } ?? base
      endpoint = wireProtocol == .grpc ? base : ServiceTracing.tracesURL(base: base)
    }
    var settings = Self(endpoint: endpoint, wireProtocol: wireProtocol)
    settings.headers = Self.pairs(environment["OTEL_EXPORTER_OTLP_TRACES_HEADERS"] ?? environment["OTEL_EXPORTER_OTLP_HEADERS"])
      .map { (name: $0.key, value: $0.value) }
    if let milliseconds = try Self.milliseconds("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", environment)
      ?? Self.milliseconds("OTEL_EXPORTER_OTLP_TIMEOUT", environment)
    {
      settings.timeout = milliseconds
    }
    if let delay = try Self.milliseconds("OTEL_BSP_SCHEDULE_DELAY", environment) { settings.scheduleDelay = delay }
    if let size = try Self.count("OTEL_BSP_MAX_QUEUE_SIZE", environment) { settings.maxQueueSize = size }
    if let size = try Self.count("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", environment) { settings.maxExportBatchSize = size }
    settings.maxExportBatchSize = min(settings.maxExportBatchSize, settings.maxQueueSize)
    if let name = environment["OTEL_TRACES_SAMPLER"], !name.isEmpty {
      guard let sampler = TraceSampler(name: name, argument: environment["OTEL_TRACES_SAMPLER_ARG"]) else {
        throw Self.invalid(
          "OTEL_TRACES_SAMPLER",
          name,
          "use always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off or parentbased_traceidratio"
        )
      }
      settings.sampler = sampler
    }
    let attributes = Self.pairs(environment["OTEL_RESOURCE_ATTRIBUTES"])
    let name =
      environment["OTEL_SERVICE_NAME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? attributes.first { $0.key == "service.name" }?.value ?? serviceName
    settings.resource = [(key: "service.name", value: name)] + attributes.filter { $0.key != "service.name" }
    return settings
  }

  /// `key=value,key=value` with percent-encoded values (W3C Baggage's form, which OpenTelemetry
  /// uses for headers and resource attributes); pairs without `=` are skipped.
  static func pairs(_ text: String?) -> [(key: String, value: String)] {
    guard let text else { return [] }
    return text.split(separator: ",").compactMap { pair in
      guard let equals = pair.firstIndex(of: "=") else { return nil }
      let key = pair[..<equals].trimmingCharacters(in: .whitespaces)
      let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
      guard !key.isEmpty else { return nil }
      return (key: key, value: value.removingPercentEncoding ?? value)
    }
  }

  private static func invalid(_ variable: String, _ value: String, _ expected: String) -> ConfigurationError {
    ConfigurationError(setting: variable, source: .environment(variable: variable), reason: "\"\(value)\": \(expected)")
  }

  private static func milliseconds(_ variable: String, _ environment: [String: String]) throws -> Duration? {
    try Self.count(variable, environment).map { .milliseconds($0) }
  }

  private static func count(_ variable: String, _ environment: [String: String]) throws -> Int? {
    guard let text = environment[variable], !text.isEmpty else { return nil }
    guard let value = Int(text), value > 0 else {
      throw Self.invalid(variable, text, "a whole number above 0")
    }
    return value
  }
}
