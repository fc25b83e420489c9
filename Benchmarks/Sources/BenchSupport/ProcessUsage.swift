import Foundation

/// CPU time and context switches of one process (all its threads), read from Linux's `/proc`,
/// so a benchmark can account for the processes it started as well as its own.
///
/// CPU is the threads' time on a core from `/proc/<pid>/task/*/schedstat` (nanoseconds, user and
/// system together); switches are `voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches` from
/// each thread's `status`. Threads that ended in between are not counted: compare windows in
/// which the process runs steadily. `nil` where `/proc` does not exist (macOS).
public struct ProcessUsage: Sendable {
  public var cpuNanoseconds: Int64
  public var contextSwitches: Int64

  public static func of(processIdentifier: Int32) -> ProcessUsage? {
    let tasks = "/proc/\(processIdentifier)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
    var usage = ProcessUsage(cpuNanoseconds: 0, contextSwitches: 0)
    for thread in threads {
      if let schedstat = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
        let onCPU = schedstat.split(separator: " ").first.flatMap({ Int64($0) })
      {
        usage.cpuNanoseconds += onCPU
      }
      if let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) {
        for line in status.split(separator: "\n")
        where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
          usage.contextSwitches += Int64(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) ?? 0
        }
      }
    }
    return usage
  }

  public static func ofThisProcess() -> ProcessUsage? {
    Self.of(processIdentifier: ProcessInfo.processInfo.processIdentifier)
  }

  /// What was used between `earlier` and `self`.
  public func since(_ earlier: ProcessUsage) -> ProcessUsage {
    ProcessUsage(
      cpuNanoseconds: self.cpuNanoseconds - earlier.cpuNanoseconds,
      contextSwitches: self.contextSwitches - earlier.contextSwitches
    )
  }
}
