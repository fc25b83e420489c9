import BenchSupport
import Foundation

/// Prints progress while measuring and, at the end, the table, the lead's targets and the two
/// ratio lines that close the output.
struct ReportPrinter: Sendable {
  let settings: BenchmarkSettings

  func printHeader(servers: [ServerProcess]) {
    let seconds = { (duration: Duration) in "\((Double(duration.nanoseconds) / 1e9).fixed(1)) s" }
    Output.line("transport-bench: unary echo, \(self.settings.payloadSize)-byte payload, mutual TLS, one connection per case,")
    Output.line("  client (this process, pid \(ProcessInfo.processInfo.processIdentifier)) and each server in separate processes")
    Output.line(
      "  each case: \(self.settings.repeats) runs of \(seconds(self.settings.warmup)) warm-up + \(seconds(self.settings.duration)) measured;"
        + " transports alternate, their order flips every run"
    )
    Output.line("  executor: \(self.settings.executor.description), in client and servers")
    Output.line("  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores")
    for server in servers {
      Output.line("  server \(server.kind.label): pid \(server.pid), 127.0.0.1:\(server.port)")
    }
    Output.line()
  }

  func printRun(_ m: Measurement) {
    Output.line(
      "run \(m.run)  \(m.kind.label.padded(13)) \(String(m.inFlight).padded(3, right: true)) in flight"
        + " \(m.callsPerSecond.fixed(0).padded(9, right: true)) calls/s"
        + "  p50 \(m.p50Microseconds.fixed(1).padded(8, right: true)) µs"
        + "  p99 \(m.p99Microseconds.fixed(1).padded(8, right: true)) µs"
        + "  CPU/call \(m.clientCPUPerCall.fixed(1).padded(6, right: true)) + \(m.serverCPUPerCall.fixed(1).padded(6, right: true))"
        + " = \(m.totalCPUPerCall.fixed(1).padded(6, right: true)) µs"
        + "  ctx sw/call \(m.contextSwitchesPerCall.fixed(2).padded(5, right: true))"
        + "  other load \(Self.cores(m.otherLoadCores))"
    )
  }

  func printSummary(_ measurements: [Measurement]) {
    let rows = self.chosenRows(measurements)
    Output.line()
    switch self.settings.pick {
    case .median:
      Output.line(
        "Summary: each row is the median run of \(self.settings.repeats) by calls/s (lower middle for an even count); all its figures come from that run."
      )
    case .best:
      Output.line("Summary: each row is the best run of \(self.settings.repeats) by calls/s; all its figures come from that run.")
    }
    Output.line("CPU is getrusage user+system time of the whole process over the measured window, divided by the calls made.")
    Output.line("other load: cores kept busy by other processes meanwhile (/proc/stat); high values mean a disturbed run.")
    Output.line()
    let widths = [13, 9, 10, 9, 9, 11, 9, 9, 12, 11]
    func row(_ cells: [String]) -> String {
      zip(cells, widths).enumerated().map { index, cell in
        cell.0.padded(cell.1, right: index > 0)
      }.joined(separator: " ")
    }
    Output.line(row(["transport", "in flight", "calls/s", "p50 µs", "p99 µs", "CPU client", "server", "total", "ctx sw/call", "other load"]))
    for kind in self.settings.kinds {
      for inFlight in self.settings.inFlight {
        guard let m = rows[Key(kind: kind, inFlight: inFlight)] else { continue }
        Output.line(
          row([
            m.kind.label, String(m.inFlight), m.callsPerSecond.fixed(0), m.p50Microseconds.fixed(1),
            m.p99Microseconds.fixed(1), m.clientCPUPerCall.fixed(1), m.serverCPUPerCall.fixed(1),
            m.totalCPUPerCall.fixed(1), m.contextSwitchesPerCall.fixed(2), Self.cores(m.otherLoadCores),
          ])
        )
      }
    }

    let framesRatio = self.throughputRatio(rows, .frames, over: .http2, inFlight: 64)
    let binarioRatio = self.throughputRatio(rows, .binario, over: .http2, inFlight: 64)
    Output.line()
    Output.line("Targets:")
    Output.line("  frames >= 10x grpc/http2 calls/s at 64 in flight:       \(Self.verdict(framesRatio, atLeast: 10))")
    Output.line("  grpc/binario >= 2x grpc/http2 calls/s at 64 in flight:   \(Self.verdict(binarioRatio, atLeast: 2))")
    if let binario = rows[Key(kind: .binario, inFlight: 1)], let http2 = rows[Key(kind: .http2, inFlight: 1)] {
      let met = binario.p50Microseconds < http2.p50Microseconds
      Output.line(
        "  grpc/binario p50 < grpc/http2 p50 at 1 in flight:        \(binario.p50Microseconds.fixed(1)) µs vs \(http2.p50Microseconds.fixed(1)) µs — \(met ? "met" : "MISSED")"
      )
    } else {
      Output.line("  grpc/binario p50 < grpc/http2 p50 at 1 in flight:        n/a")
    }
    Output.line()
    Output.line("frames/http2 throughput ratio at 64 in flight: \(Self.format(framesRatio))")
    Output.line("binario/http2 throughput ratio at 64 in flight: \(Self.format(binarioRatio))")
  }

  // MARK: Helpers

  private struct Key: Hashable {
    var kind: TransportKind
    var inFlight: Int
  }

  private func chosenRows(_ measurements: [Measurement]) -> [Key: Measurement] {
    Dictionary(grouping: measurements) { Key(kind: $0.kind, inFlight: $0.inFlight) }
      .mapValues { self.settings.pick.choose(from: $0) }
  }

  private func throughputRatio(_ rows: [Key: Measurement], _ kind: TransportKind, over baseline: TransportKind, inFlight: Int) -> Double? {
    guard let measured = rows[Key(kind: kind, inFlight: inFlight)],
      let base = rows[Key(kind: baseline, inFlight: inFlight)], base.callsPerSecond > 0
    else { return nil }
    return measured.callsPerSecond / base.callsPerSecond
  }

  private static func cores(_ value: Double?) -> String {
    value.map { "\($0.fixed(2)) cores" } ?? "n/a"
  }

  private static func format(_ ratio: Double?) -> String {
    ratio.map { $0.fixed(2) } ?? "n/a"
  }

  private static func verdict(_ ratio: Double?, atLeast target: Double) -> String {
    guard let ratio else { return "n/a" }
    return "\(ratio.fixed(2))x — \(ratio >= target ? "met" : "MISSED")"
  }
}

extension Double {
  /// The number with `digits` digits after the decimal point.
  func fixed(_ digits: Int) -> String {
    String(format: "%.\(digits)f", self)
  }
}

extension String {
  /// Pads with spaces to `width` characters: on the right (left-aligned text) or, with
  /// `right`, on the left (right-aligned numbers).
  func padded(_ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - self.count))
    return right ? padding + self : self + padding
  }
}
