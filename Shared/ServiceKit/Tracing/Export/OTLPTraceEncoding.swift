import BinarioTracing
import Foundation
import Tracing
import W3CTraceContext

/// OTLP's trace messages (`proto/opentelemetry`), from the spans a ``RecordingTracer`` ended.
enum OTLPTraceEncoding {
  /// One export: the process's resource, one instrumentation scope, the spans.
  static func request(
    spans: [FinishedSpan],
    resource: [(key: String, value: String)]
  ) -> Opentelemetry_Proto_Collector_Trace_V1_ExportTraceServiceRequest {
    var scopeSpans = Opentelemetry_Proto_Trace_V1_ScopeSpans()
    scopeSpans.scope.name = "binario"
    scopeSpans.spans = spans.map(Self.span)
    var resourceSpans = Opentelemetry_Proto_Trace_V1_ResourceSpans()
    resourceSpans.resource.attributes = resource.map { Self.keyValue($0.key, .string($0.value)) }
    resourceSpans.scopeSpans = [scopeSpans]
    var request = Opentelemetry_Proto_Collector_Trace_V1_ExportTraceServiceRequest()
    request.resourceSpans = [resourceSpans]
    return request
  }

  static func span(_ finished: FinishedSpan) -> Opentelemetry_Proto_Trace_V1_Span {
    var span = Opentelemetry_Proto_Trace_V1_Span()
    span.traceID = Self.bytes(finished.trace.traceID)
    span.spanID = Self.bytes(finished.trace.spanID)
    if let state = finished.trace.traceStateHeaderValue { span.traceState = state }
    if let parent = finished.parentSpanID { span.parentSpanID = Self.bytes(parent) }
    span.flags = UInt32(finished.trace.flags.rawValue)
    span.name = finished.operationName
    span.kind = Self.kind(finished.kind)
    span.startTimeUnixNano = finished.startNanoseconds
    span.endTimeUnixNano = finished.endNanoseconds
    span.attributes = Self.keyValues(finished.attributes)
    span.events = finished.events.map { event in
      var otlp = Opentelemetry_Proto_Trace_V1_Span.Event()
      otlp.name = event.name
      otlp.timeUnixNano = event.nanosecondsSinceEpoch
      otlp.attributes = Self.keyValues(event.attributes)
      return otlp
    }
    span.links = finished.links.map { link in
      var otlp = Opentelemetry_Proto_Trace_V1_Span.Link()
      otlp.traceID = Self.bytes(link.trace.traceID)
      otlp.spanID = Self.bytes(link.trace.spanID)
      if let state = link.trace.traceStateHeaderValue { otlp.traceState = state }
      otlp.flags = UInt32(link.trace.flags.rawValue)
      otlp.attributes = Self.keyValues(link.attributes)
      return otlp
    }
    if let status = finished.status {
      span.status.code = status.code == .ok ? .ok : .error
      if let message = status.message { span.status.message = message }
    }
    return span
  }

  static func kind(_ kind: SpanKind) -> Opentelemetry_Proto_Trace_V1_Span.SpanKind {
    switch kind {
    case .server: return .server
    case .client: return .client
    case .producer: return .producer
    case .consumer: return .consumer
    case .internal: return .internal
    }
  }

  static func keyValues(_ attributes: SpanAttributes) -> [Opentelemetry_Proto_Common_V1_KeyValue] {
    var keyValues: [Opentelemetry_Proto_Common_V1_KeyValue] = []
    keyValues.reserveCapacity(attributes.count)
    attributes.forEach { key, attribute in
      if let value = Self.value(attribute) {
        var keyValue = Opentelemetry_Proto_Common_V1_KeyValue()
        keyValue.key = key
        keyValue.value = value
        keyValues.append(keyValue)
      }
    }
    return keyValues
  }

  private static func keyValue(_ key: String, _ attribute: SpanAttribute) -> Opentelemetry_Proto_Common_V1_KeyValue {
    var keyValue = Opentelemetry_Proto_Common_V1_KeyValue()
    keyValue.key = key
    keyValue.value = Self.value(attribute) ?? Opentelemetry_Proto_Common_V1_AnyValue()
    return keyValue
  }

  static func value(_ attribute: SpanAttribute) -> Opentelemetry_Proto_Common_V1_AnyValue? {
    var value = Opentelemetry_Proto_Common_V1_AnyValue()
    switch attribute {
    case .int32(let number): value.intValue = Int64(number)
    case .int64(let number): value.intValue = number
    case .double(let number): value.doubleValue = number
    case .bool(let flag): value.boolValue = flag
    case .string(let text): value.stringValue = text
    case .stringConvertible(let convertible): value.stringValue = convertible.description
    case .int32Array(let numbers): value.arrayValue = Self.array(numbers.map { .int64(Int64($0)) })
    case .int64Array(let numbers): value.arrayValue = Self.array(numbers.map { .int64($0) })
    case .doubleArray(let numbers): value.arrayValue = Self.array(numbers.map { .double($0) })
    case .boolArray(let flags): value.arrayValue = Self.array(flags.map { .bool($0) })
    case .stringArray(let texts): value.arrayValue = Self.array(texts.map { .string($0) })
    case .stringConvertibleArray(let convertibles): value.arrayValue = Self.array(convertibles.map { .string($0.description) })
    default: return nil
    }
    return value
  }

  private static func array(_ attributes: [SpanAttribute]) -> Opentelemetry_Proto_Common_V1_ArrayValue {
    var array = Opentelemetry_Proto_Common_V1_ArrayValue()
    array.values = attributes.compactMap(Self.value)
    return array
  }

  private static func bytes(_ id: TraceID) -> Data { withUnsafeBytes(of: id.bytes) { Data($0) } }
  private static func bytes(_ id: SpanID) -> Data { withUnsafeBytes(of: id.bytes) { Data($0) } }
}
