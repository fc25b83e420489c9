#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and context switches of a whole process (all threads), from `getrusage(RUSAGE_SELF)`.
///
/// A benchmark reads its own; transport-bench's server children report theirs over their control
/// pipe, so both sides are exact `getrusage` figures.
public struct ResourceUsage: Sendable {
  public var userMicroseconds: Int64
  public var systemMicroseconds: Int64
  public var voluntaryContextSwitches: Int64
  public var involuntaryContextSwitches: Int64

  public var cpuMicroseconds: Int64 { self.userMicroseconds + self.systemMicroseconds }
  public var contextSwitches: Int64 { self.voluntaryContextSwitches + self.involuntaryContextSwitches }

  public static func ofThisProcess() -> ResourceUsage {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func micros(_ time: timeval) -> Int64 { Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_usec) }
    return ResourceUsage(
      userMicroseconds: micros(usage.ru_utime),
      systemMicroseconds: micros(usage.ru_stime),
      voluntaryContextSwitches: Int64(usage.ru_nvcsw),
      involuntaryContextSwitches: Int64(usage.ru_nivcsw)
    )
  }

  /// What was used between `earlier` and `self`.
  public func since(_ earlier: ResourceUsage) -> ResourceUsage {
    ResourceUsage(
      userMicroseconds: self.userMicroseconds - earlier.userMicroseconds,
      systemMicroseconds: self.systemMicroseconds - earlier.systemMicroseconds,
      voluntaryContextSwitches: self.voluntaryContextSwitches - earlier.voluntaryContextSwitches,
      involuntaryContextSwitches: self.involuntaryContextSwitches - earlier.involuntaryContextSwitches
    )
  }

  // MARK: One line of text, for the control pipe

  /// `usage <user µs> <system µs> <voluntary switches> <involuntary switches>`
  public var line: String {
    "usage \(self.userMicroseconds) \(self.systemMicroseconds) \(self.voluntaryContextSwitches) \(self.involuntaryContextSwitches)"
  }

  public init?(line: String) {
    let fields = line.split(separator: " ")
    guard fields.count == 5, fields[0] == "usage" else { return nil }
    let numbers = fields.dropFirst().compactMap { Int64($0) }
    guard numbers.count == 4 else { return nil }
    self.init(
      userMicroseconds: numbers[0],
      systemMicroseconds: numbers[1],
      voluntaryContextSwitches: numbers[2],
      involuntaryContextSwitches: numbers[3]
    )
  }

  public init(userMicroseconds: Int64, systemMicroseconds: Int64, voluntaryContextSwitches: Int64, involuntaryContextSwitches: Int64) {
    self.userMicroseconds = userMicroseconds
    self.systemMicroseconds = systemMicroseconds
    self.voluntaryContextSwitches = voluntaryContextSwitches
    self.involuntaryContextSwitches = involuntaryContextSwitches
  }
}
