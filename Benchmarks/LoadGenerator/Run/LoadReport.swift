import Foundation

/// What one run at one rate through one door measured.
public struct LoadReport: Sendable, Codable {
  public struct Operation: Sendable, Codable {
    public var name: String
    public var app: String
    /// Started per second, as scheduled.
    public var scheduledPerSecond: Double
    public var completed: Int
    /// Microseconds from the intended start (not the actual one: a call the generator started
    /// late, because the suite or the generator was behind, counts its wait).
    public var p50: UInt64
    public var p90: UInt64
    public var p99: UInt64
    public var p999: UInt64
    public var max: UInt64
    public var failures: [String: Int]
    public var examples: [String: String]

    public var failed: Int { failures.values.reduce(0, +) }
  }

  public var door: DoorKind
  /// Operations started per second, all together, as scheduled.
  public var rate: Double
  public var seconds: Double
  public var operations: [Operation]
  public var streams: StreamFigures
  /// Calls the generator could not start because too many were in flight: the suite fell so far
  /// behind that the run is over capacity.
  public var notStarted: Int

  public var completedPerSecond: Double { Double(operations.reduce(0) { $0 + $1.completed }) / seconds }
  public var failed: Int { operations.reduce(0) { $0 + $1.failed } + streams.failures.values.reduce(0, +) + notStarted }

  /// Sustained: every operation's p99 under `limit` microseconds, and no failure at all.
  public func sustained(p99Under limit: UInt64) -> Bool {
    failed == 0 && operations.allSatisfy { $0.completed == 0 || $0.p99 < limit }
  }

  /// The slowest operation by p99.
  public var slowest: Operation? { operations.max { $0.p99 < $1.p99 } }

  /// A Markdown table, one row an operation.
  public var table: String {
    func ms(_ microseconds: UInt64) -> String { String(format: "%.1f", Double(microseconds) / 1000) }
    var lines = [
      "door \(door.rawValue), \(String(format: "%.0f", rate)) operations/s scheduled for \(String(format: "%.0f", seconds)) s: "
        + "\(String(format: "%.1f", completedPerSecond))/s completed, \(failed) failed",
      "",
      "| operation | app | per s | done | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | failed |",
      "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for operation in operations {
      let failures = operation.failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
      lines.append(
        "| \(operation.name) | \(operation.app) | \(String(format: "%.1f", operation.scheduledPerSecond)) | \(operation.completed) | "
          + "\(ms(operation.p50)) | \(ms(operation.p90)) | \(ms(operation.p99)) | \(ms(operation.p999)) | \(ms(operation.max)) | "
          + "\(failures.isEmpty ? "0" : failures) |"
      )
    }
    let streamFailures = streams.failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    lines.append("")
    lines.append(
      "notification streams: \(streams.open) open, \(streams.opened) opened during the run, \(streams.messages) messages, "
        + (streamFailures.isEmpty ? "none failed" : "failed: \(streamFailures)")
    )
    if notStarted > 0 { lines.append("not started (over the in-flight bound): \(notStarted)") }
    for operation in operations {
      for (code, message) in operation.examples.sorted(by: { $0.key < $1.key }) {
        lines.append("  \(operation.name), \(code): \(message)")
      }
    }
    if let example = streams.example { lines.append("  notification stream: \(example)") }
    return lines.joined(separator: "\n")
  }
}
