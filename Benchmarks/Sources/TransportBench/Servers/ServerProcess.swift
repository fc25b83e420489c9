import BenchSupport
import Foundation
import NIOConcurrencyHelpers

/// The parent's handle on one server child: `transport-bench serve --kind <kind> ...`, spoken to
/// over its stdin/stdout with the ``ServerControl`` line protocol.
final class ServerProcess: @unchecked Sendable {
  let kind: TransportKind
  /// The pid the child reported itself.
  let pid: Int32
  let port: Int

  private let process: Process
  private let requests: FileHandle
  private let replies: LineReader
  /// Serializes request/reply exchanges and stopping (`@unchecked Sendable` rests on it).
  private let lock = NIOLock()
  private var isStopped = false

  private init(kind: TransportKind, pid: Int32, port: Int, process: Process, requests: FileHandle, replies: LineReader) {
    self.kind = kind
    self.pid = pid
    self.port = port
    self.process = process
    self.requests = requests
    self.replies = replies
  }

  struct LaunchFailed: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts a server child running this same executable, and waits until it listens.
  static func launch(
    kind: TransportKind,
    certificateDirectory: URL,
    executor: ConcurrencyExecutor
  ) throws -> ServerProcess {
    let process = Process()
    process.executableURL = Self.thisExecutable()
    process.arguments = ["serve", "--kind", kind.rawValue, "--cert-dir", certificateDirectory.path] + executor.arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()

    let replies = LineReader(fileDescriptor: stdout.fileHandleForReading.fileDescriptor)
    guard let line = replies.nextLine() else {
      process.waitUntilExit()
      throw LaunchFailed(description: "the \(kind.rawValue) server exited (status \(process.terminationStatus)) before listening")
    }
    guard let (pid, port) = ServerControl.parseListeningLine(line) else {
      process.terminate()
      throw LaunchFailed(description: "the \(kind.rawValue) server said \"\(line)\" instead of where it listens")
    }
    return ServerProcess(
      kind: kind,
      pid: pid,
      port: port,
      process: process,
      requests: stdin.fileHandleForWriting,
      replies: replies
    )
  }

  private static func thisExecutable() -> URL {
    #if os(Linux)
    return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    #else
    return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    #endif
  }

  /// The child's own `getrusage(RUSAGE_SELF)`. Blocks on the pipe: call it from
  /// ``AsyncMain/offloaded(_:)`` in async code.
  func resourceUsage() throws -> ResourceUsage {
    try self.lock.withLock {
      try self.requests.write(contentsOf: Data((ServerControl.usageRequest + "\n").utf8))
      guard let line = self.replies.nextLine(), let usage = ResourceUsage(line: line) else {
        throw LaunchFailed(description: "the \(self.kind.rawValue) server (pid \(self.pid)) did not report its resource usage")
      }
      return usage
    }
  }

  /// Closes the child's stdin (it exits on its own), and terminates it if it has not exited
  /// within `timeout`. Stopping twice does nothing.
  func stop(timeout: Duration = .seconds(3)) {
    let alreadyStopped = self.lock.withLock {
      defer { self.isStopped = true }
      return self.isStopped
    }
    guard !alreadyStopped else { return }
    try? self.requests.close()
    let deadline = ContinuousClock.now + timeout
    while self.process.isRunning && ContinuousClock.now < deadline {
      Thread.sleep(forTimeInterval: 0.02)
    }
    if self.process.isRunning {
      self.process.terminate()
    }
    self.process.waitUntilExit()
  }
}

/// Reads newline-terminated lines from a file descriptor with blocking `read`s.
final class LineReader: @unchecked Sendable {
  private let fileDescriptor: Int32
  private var buffer: [UInt8] = []

  init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  /// The next line without its newline, or `nil` at end of file.
  func nextLine() -> String? {
    while true {
      if let newline = self.buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: self.buffer[..<newline], as: UTF8.self)
        self.buffer.removeSubrange(...newline)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(self.fileDescriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      self.buffer.append(contentsOf: chunk[..<count])
    }
  }
}
