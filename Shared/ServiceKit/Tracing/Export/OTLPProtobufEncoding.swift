import BinarioTracing
import Tracing
import W3CTraceContext

/// OTLP/HTTP's protobuf body, written straight from the spans into one byte array.
///
/// The same bytes swift-protobuf would write for ``OTLPTraceEncoding/request(spans:resource:)``
/// (the tests decode them with the generated messages and compare), without building those
/// messages first: gateway-bench measured building and serializing them at about 15 µs of CPU
/// per call at 64 in flight (two spans per call), most of what exporting every span cost. This
/// is the default protocol's path; OTLP/JSON and gRPC send the generated messages.
enum OTLPProtobufEncoding {
  static func request(spans: [FinishedSpan], resource: [(key: String, value: String)]) -> [UInt8] {
    var writer = ProtobufWriter()
    writer.reserve(spans.count * 320 + 256)
    // ExportTraceServiceRequest.resource_spans
    writer.message(1) { resourceSpans in
      // ResourceSpans.resource
      resourceSpans.message(1) { otlpResource in
        for (key, value) in resource {
          otlpResource.message(1) { keyValue in
            keyValue.string(1, key)
            keyValue.message(2) { $0.string(1, value, always: true) }
          }
        }
      }
      // ResourceSpans.scope_spans
      resourceSpans.message(2) { scopeSpans in
        scopeSpans.message(1) { $0.string(1, "binario") }
        for span in spans {
          scopeSpans.message(2) { Self.span(span, into: &$0) }
        }
      }
    }
    return writer.bytes
  }

  private static func span(_ span: FinishedSpan, into writer: inout ProtobufWriter) {
    writer.id(1, span.trace.traceID.bytes)
    writer.id(2, span.trace.spanID.bytes)
    if let state = span.trace.traceStateHeaderValue { writer.string(3, state) }
    if let parent = span.parentSpanID { writer.id(4, parent.bytes) }
    writer.string(5, span.operationName)
    writer.enumeration(6, OTLPTraceEncoding.kind(span.kind).rawValue)
    writer.fixed64(7, span.startNanoseconds)
    writer.fixed64(8, span.endNanoseconds)
    Self.attributes(9, span.attributes, into: &writer)
    for event in span.events {
      writer.message(11) { otlp in
        otlp.fixed64(1, event.nanosecondsSinceEpoch)
        otlp.string(2, event.name)
        Self.attributes(3, event.attributes, into: &otlp)
      }
    }
    for link in span.links {
      writer.message(13) { otlp in
        otlp.id(1, link.trace.traceID.bytes)
        otlp.id(2, link.trace.spanID.bytes)
        if let state = link.trace.traceStateHeaderValue { otlp.string(3, state) }
        Self.attributes(4, link.attributes, into: &otlp)
        otlp.fixed32(6, UInt32(link.trace.flags.rawValue))
      }
    }
    if let status = span.status {
      writer.message(15) { otlp in
        otlp.string(2, status.message ?? "")
        otlp.enumeration(3, status.code == .ok ? 1 : 2)
      }
    }
    writer.fixed32(16, UInt32(span.trace.flags.rawValue))
  }

  private static func attributes(_ field: Int, _ attributes: SpanAttributes, into writer: inout ProtobufWriter) {
    attributes.forEach { key, attribute in
      guard Self.isEncodable(attribute) else { return }
      writer.message(field) { keyValue in
        keyValue.string(1, key)
        keyValue.message(2) { Self.value(attribute, into: &$0) }
      }
    }
  }

  private static func isEncodable(_ attribute: SpanAttribute) -> Bool {
    switch attribute {
    case .string, .stringConvertible, .bool, .int32, .int64, .double, .int32Array, .int64Array, .doubleArray, .boolArray,
      .stringArray, .stringConvertibleArray:
      return true
    default:
      return false
    }
  }

  /// An `AnyValue`'s one field: a oneof is written even when it holds its type's default.
  private static func value(_ attribute: SpanAttribute, into writer: inout ProtobufWriter) {
    switch attribute {
    case .string(let text): writer.string(1, text, always: true)
    case .stringConvertible(let convertible): writer.string(1, convertible.description, always: true)
    case .bool(let flag): writer.varint(2, flag ? 1 : 0, always: true)
    case .int32(let number): writer.varint(3, UInt64(bitPattern: Int64(number)), always: true)
    case .int64(let number): writer.varint(3, UInt64(bitPattern: number), always: true)
    case .double(let number): writer.fixed64(4, number.bitPattern, always: true)
    case .int32Array(let numbers): Self.array(numbers.map { .int64(Int64($0)) }, into: &writer)
    case .int64Array(let numbers): Self.array(numbers.map { .int64($0) }, into: &writer)
    case .doubleArray(let numbers): Self.array(numbers.map { .double($0) }, into: &writer)
    case .boolArray(let flags): Self.array(flags.map { .bool($0) }, into: &writer)
    case .stringArray(let texts): Self.array(texts.map { .string($0) }, into: &writer)
    case .stringConvertibleArray(let convertibles): Self.array(convertibles.map { .string($0.description) }, into: &writer)
    default: break
    }
  }

  private static func array(_ attributes: [SpanAttribute], into writer: inout ProtobufWriter) {
    writer.message(5) { array in
      for attribute in attributes {
        array.message(1) { Self.value(attribute, into: &$0) }
      }
    }
  }
}

/// Protobuf's wire format, the few field kinds OTLP's trace messages use. Scalars at their
/// default value are left out, as proto3 writes them, unless `always` (a oneof's field).
struct ProtobufWriter {
  private(set) var bytes: [UInt8] = []

  mutating func reserve(_ capacity: Int) { self.bytes.reserveCapacity(capacity) }

  private mutating func rawVarint(_ value: UInt64) {
    Self.appendVarint(value, to: &self.bytes)
  }

  private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
    var value = value
    while value >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
      value >>= 7
    }
    bytes.append(UInt8(value))
  }

  private mutating func tag(_ field: Int, _ wireType: UInt64) {
    self.rawVarint(UInt64(field) << 3 | wireType)
  }

  mutating func varint(_ field: Int, _ value: UInt64, always: Bool = false) {
    guard value != 0 || always else { return }
    self.tag(field, 0)
    self.rawVarint(value)
  }

  mutating func enumeration(_ field: Int, _ value: Int) {
    self.varint(field, UInt64(bitPattern: Int64(value)))
  }

  mutating func fixed64(_ field: Int, _ value: UInt64, always: Bool = false) {
    guard value != 0 || always else { return }
    self.tag(field, 1)
    withUnsafeBytes(of: value.littleEndian) { self.bytes.append(contentsOf: $0) }
  }

  mutating func fixed32(_ field: Int, _ value: UInt32) {
    guard value != 0 else { return }
    self.tag(field, 5)
    withUnsafeBytes(of: value.littleEndian) { self.bytes.append(contentsOf: $0) }
  }

  mutating func string(_ field: Int, _ text: String, always: Bool = false) {
    let utf8 = text.utf8
    guard !utf8.isEmpty || always else { return }
    self.tag(field, 2)
    self.rawVarint(UInt64(utf8.count))
    self.bytes.append(contentsOf: utf8)
  }

  /// A trace or span id: its bytes as they are (a tuple of `UInt8`s).
  mutating func id<Bytes>(_ field: Int, _ id: Bytes) {
    withUnsafeBytes(of: id) { raw in
      self.tag(field, 2)
      self.rawVarint(UInt64(raw.count))
      self.bytes.append(contentsOf: raw)
    }
  }

  /// A nested message: its length goes before it, so it is written first behind a one-byte
  /// length, which is widened in place when the message turns out 128 bytes or longer.
  mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
    self.tag(field, 2)
    let lengthAt = self.bytes.count
    self.bytes.append(0)
    body(&self)
    let length = self.bytes.count - lengthAt - 1
    if length < 0x80 {
      self.bytes[lengthAt] = UInt8(length)
      return
    }
    var prefix: [UInt8] = []
    Self.appendVarint(UInt64(length), to: &prefix)
    self.bytes.replaceSubrange(lengthAt ..< lengthAt + 1, with: prefix)
  }
}
