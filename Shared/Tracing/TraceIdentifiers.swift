import Synchronization
import W3CTraceContext

/// Where new trace and span ids come from: SplitMix64 over a counter whose start is drawn from
/// the system's random source once per process.
///
/// `SystemRandomNumberGenerator` is a `getrandom(2)` system call for every eight bytes on Linux;
/// a call that starts two spans would make three of them. W3C trace context asks ids to be
/// unique and spread over the whole range, not secret: SplitMix64's output function is a
/// bijection, so a process never repeats an id, and the random start keeps processes apart.
public struct TraceIdentifiers: RandomNumberGenerator, Sendable {
  private static let counter = Atomic<UInt64>(UInt64.random(in: .min ... .max))

  public init() {}

  public mutating func next() -> UInt64 {
    var value = Self.counter.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  /// A new trace id (never the all-zero one W3C forbids).
  public static func traceID() -> TraceID {
    var generator = Self()
    var id = TraceID.random(using: &generator)
    while id == .null { id = TraceID.random(using: &generator) }
    return id
  }

  /// A new span id (never the all-zero one W3C forbids).
  public static func spanID() -> SpanID {
    var generator = Self()
    var id = SpanID.random(using: &generator)
    while id == .null { id = SpanID.random(using: &generator) }
    return id
  }
}
