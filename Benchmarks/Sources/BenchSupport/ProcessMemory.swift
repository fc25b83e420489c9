import Foundation

/// A process's resident memory, from Linux's `/proc/<pid>/status`: now (`VmRSS`) and the most
/// it has held since it started (`VmHWM`), in bytes; `nil` where `/proc` does not exist.
/// What deploy/kubernetes' memory requests and limits are set from.
public struct ProcessMemory: Sendable {
  public var residentBytes: Int64
  public var peakResidentBytes: Int64
  /// Of ``residentBytes``: anonymous memory (the process's own heap and stacks, `RssAnon`), as
  /// against pages of files it maps (`RssFile`: a database read through a memory map, counted
  /// once per mapping although the kernel holds each page once, and given back under pressure).
  public var anonymousBytes: Int64 = 0

  public static func of(processIdentifier: Int32) -> ProcessMemory? {
    guard let status = try? String(contentsOfFile: "/proc/\(processIdentifier)/status", encoding: .utf8) else { return nil }
    func kilobytes(_ field: String) -> Int64? {
      guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
      return Int64(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
    guard let resident = kilobytes("VmRSS"), let peak = kilobytes("VmHWM") else { return nil }
    return ProcessMemory(
      residentBytes: resident * 1024,
      peakResidentBytes: peak * 1024,
      anonymousBytes: (kilobytes("RssAnon") ?? 0) * 1024
    )
  }

  /// `12.3 MiB`.
  public static func mebibytes(_ bytes: Int64) -> String {
    String(format: "%.1f MiB", Double(bytes) / 1_048_576)
  }
}
