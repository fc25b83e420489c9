import BenchSupport
import Foundation

/// The line protocol between the benchmark (parent) and a server child, on the child's
/// stdin/stdout:
///
/// - child → parent, once: `listening pid=<pid> port=<port>` (the child's own pid, not that of
///   a wrapper);
/// - parent → child: `usage`; child → parent: a ``ResourceUsage`` line;
/// - parent closes stdin: the child exits (so does an orphaned child when its parent dies).
enum ServerControl {
  static func listeningLine(pid: Int32, port: Int) -> String {
    "listening pid=\(pid) port=\(port)"
  }

  static func parseListeningLine(_ line: String) -> (pid: Int32, port: Int)? {
    var pid: Int32?
    var port: Int?
    for field in line.split(separator: " ").dropFirst() {
      let parts = field.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "pid": pid = Int32(parts[1])
      case "port": port = Int(parts[1])
      default: break
      }
    }
    guard line.hasPrefix("listening "), let pid, let port else { return nil }
    return (pid, port)
  }

  static let usageRequest = "usage"

  /// Child side: announces the port, then answers `usage` requests on a thread of its own
  /// until stdin closes, and exits.
  static func announceAndServeRequests(port: Int) {
    self.emit(self.listeningLine(pid: ProcessInfo.processInfo.processIdentifier, port: port))
    Thread.detachNewThread {
      while let request = readLine() {
        if request == self.usageRequest {
          self.emit(ResourceUsage.ofThisProcess().line)
        }
      }
      exit(0)
    }
  }

  private static func emit(_ line: String) {
    Output.line(line)
  }
}
