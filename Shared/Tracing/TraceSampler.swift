import W3CTraceContext

/// Which new spans are recorded: OpenTelemetry's built-in samplers, by the names
/// `OTEL_TRACES_SAMPLER` uses.
public indirect enum TraceSampler: Sendable, Hashable {
  case alwaysOn
  case alwaysOff
  /// A share of traces, the same decision for a trace id in every process (OpenTelemetry's
  /// `TraceIdRatioBased`: the id's last eight bytes against the share of their range).
  case traceIDRatio(Double)
  /// The caller's decision when there is a caller; `root`'s for a new trace.
  case parentBased(root: TraceSampler)

  /// `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`: nil for a name it does not know.
  /// A ratio that is not a number in 0...1 is 1, as the specification says.
  public init?(name: String, argument: String?) {
    let ratio = argument.flatMap(Double.init).flatMap { (0 ... 1).contains($0) ? $0 : nil } ?? 1
    switch name {
    case "always_on": self = .alwaysOn
    case "always_off": self = .alwaysOff
    case "traceidratio": self = .traceIDRatio(ratio)
    case "parentbased_always_on": self = .parentBased(root: .alwaysOn)
    case "parentbased_always_off": self = .parentBased(root: .alwaysOff)
    case "parentbased_traceidratio": self = .parentBased(root: .traceIDRatio(ratio))
    default: return nil
    }
  }

  /// Whether a new span of `traceID`, under `parent` (nil: a new trace), is recorded.
  public func samples(traceID: TraceID, parent: TraceContext?) -> Bool {
    switch self {
    case .alwaysOn: return true
    case .alwaysOff: return false
    case .traceIDRatio(let ratio):
      if ratio >= 1 { return true }
      if ratio <= 0 { return false }
      let bytes = traceID.bytes
      let low = [bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15]
        .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
      return Double(low) < ratio * Double(UInt64.max)
    case .parentBased(let root):
      guard let parent else { return root.samples(traceID: traceID, parent: nil) }
      return parent.flags.contains(.sampled)
    }
  }
}
