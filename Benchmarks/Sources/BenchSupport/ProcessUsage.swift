import Foundation

/// CPU time and context switches of one process (all its threads), read from Linux's `/proc`,
/// so a benchmark can account for the processes it started as well as its own.
///
/// CPU is the process's user + system time from `/proc/<pid>/stat`, which keeps the time of
/// threads that have ended (a password-hashing worker, say), in clock ticks (10 ms): over a
/// window of a few seconds and thousands of calls that is a few µs per call at most. Switches are
/// `voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches` of the live threads
/// (`/proc/<pid>/task/*/status`). `nil` where `/proc` does not exist (macOS).
public struct ProcessUsage: Sendable {
  public var cpuNanoseconds: Int64
  public var contextSwitches: Int64

  public static func of(processIdentifier: Int32) -> ProcessUsage? {
    guard let stat = try? String(contentsOfFile: "/proc/\(processIdentifier)/stat", encoding: .utf8),
      let endOfName = stat.lastIndex(of: ")")
    else { return nil }
    // After "pid (name)": state is field 3, utime field 14, stime field 15.
    let fields = stat[stat.index(after: endOfName)...].split(separator: " ")
    guard fields.count > 12, let user = Int64(fields[11]), let system = Int64(fields[12]) else { return nil }
    let nanosecondsPerTick = 1_000_000_000 / Int64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
    var usage = ProcessUsage(cpuNanoseconds: (user + system) * nanosecondsPerTick, contextSwitches: 0)

    let tasks = "/proc/\(processIdentifier)/task"
    for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
      guard let status = try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8) else { continue }
      for line in status.split(separator: "\n")
      where line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:") {
        usage.contextSwitches += Int64(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) ?? 0
      }
    }
    return usage
  }

  /// What was used between `earlier` and `self`.
  public func since(_ earlier: ProcessUsage) -> ProcessUsage {
    ProcessUsage(
      cpuNanoseconds: self.cpuNanoseconds - earlier.cpuNanoseconds,
      contextSwitches: self.contextSwitches - earlier.contextSwitches
    )
  }
}
