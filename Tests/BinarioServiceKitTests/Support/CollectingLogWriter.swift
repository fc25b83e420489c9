import BinarioServiceKit
import Synchronization

/// Keeps the lines a log handler writes, for tests to read.
final class CollectingLogWriter: LogLineWriter {
  private let collected = Mutex<[String]>([])

  func write(line: String) {
    self.collected.withLock { $0.append(line) }
  }

  var lines: [String] {
    self.collected.withLock { $0 }
  }
}
