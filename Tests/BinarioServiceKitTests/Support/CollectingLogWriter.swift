import BinarioServiceKit
import Synchronization

/// Keeps the lines a log handler writes, for tests to read.
final class CollectingLogWriter: LogLineWriter {
  private let collected = Mutex<[String]>([])
  private let stream = AsyncStream.makeStream(of: String.self)

  func write(line: String) {
    self.collected.withLock { $0.append(line) }
    self.stream.continuation.yield(line)
  }

  /// Waits for the first line (written so far or later) that matches.
  func firstLine(where matches: (String) -> Bool) async -> String? {
    for await line in self.stream.stream where matches(line) { return line }
    return nil
  }

  var lines: [String] {
    self.collected.withLock { $0 }
  }
}
