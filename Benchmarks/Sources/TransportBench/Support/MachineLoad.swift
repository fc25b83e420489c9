import Foundation

/// CPU time the whole machine spent busy (all processes, all cores), from `/proc/stat`.
///
/// Compared with the client's and server's own `getrusage` over the same window, it shows how
/// much *other* work competed for the cores while a case ran: on a shared 2-core machine that
/// is the main source of run-to-run noise. `nil` where `/proc/stat` does not exist (macOS).
struct MachineLoad: Sendable {
  /// Busy time of all cores together (user, nice, system, irq, softirq, steal), in µs.
  var busyMicroseconds: Int64

  static func now() -> MachineLoad? {
    guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") })
    else { return nil }
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (clock ticks)
    let ticks = line.split(separator: " ").dropFirst().compactMap { Int64($0) }
    guard ticks.count >= 8 else { return nil }
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
    let microsecondsPerTick = 1_000_000 / Int64(max(sysconf(Int32(_SC_CLK_TCK)), 1))
    return MachineLoad(busyMicroseconds: busy * microsecondsPerTick)
  }
}
