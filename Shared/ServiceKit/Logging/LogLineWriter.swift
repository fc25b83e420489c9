import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where finished log lines go. Each call receives one complete line, without its newline.
public protocol LogLineWriter: Sendable {
  func write(line: String)
  /// The same for a line in UTF-8; `urgent` asks for it to be written before this returns.
  func write(bytes: [UInt8], urgent: Bool)
}

extension LogLineWriter {
  public func write(bytes: [UInt8], urgent: Bool) {
    self.write(line: String(decoding: bytes, as: UTF8.self))
  }
}

/// Writes lines to a file descriptor (standard error by default), whole lines only, so lines
/// from concurrent tasks never interleave.
///
/// A line logged on one of NIO's event loops (where every service's calls run) is held for at
/// most ``holdingTime`` (or until 64 KiB are held), then written with the others that loop
/// logged meanwhile in one `write(2)`. Under load that turns one system call per call into one
/// per millisecond: a write to a pipe whose reader sleeps (a container runtime's log collector)
/// wakes that reader, which costs more than building the line. Lines at `warning` and above, and
/// lines from other threads, are written at once, after what their thread still holds, so
/// nothing is reordered on a thread and a line that precedes a crash is out. ``flushAll()``
/// writes what every loop holds (the runner awaits it as the process ends).
public final class FileDescriptorLogWriter: LogLineWriter {
  /// Standard error: logs stay out of standard output, which tools may read.
  public static let standardError = FileDescriptorLogWriter(fileDescriptor: 2)
  public static let standardOutput = FileDescriptorLogWriter(fileDescriptor: 1)

  /// Past this many bytes held, a loop's lines are written at once.
  static let heldBytesLimit = 64 * 1024
  /// The longest a line waits for others to share its write.
  public static let holdingTime = TimeAmount.milliseconds(1)

  private let fileDescriptor: Int32
  private let lock = Mutex(())
  /// Each event loop thread's held lines.
  private let held = ThreadSpecificVariable<HeldLines>()

  /// The lines one thread holds, and whether a write is already queued on its loop.
  ///
  /// `@unchecked Sendable` is safe: an instance lives in one thread's thread-specific variable
  /// and is only reached from that thread; the write queued with `execute` runs on the same
  /// loop, which is that one thread.
  private final class HeldLines: @unchecked Sendable {
    var bytes: [UInt8] = []
    var writeQueued = false
  }

  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  public func write(line: String) {
    self.write(bytes: Array(line.utf8), urgent: false)
  }

  public func write(bytes: [UInt8], urgent: Bool) {
    guard !urgent, let loop = MultiThreadedEventLoopGroup.currentEventLoop else {
      var bytes = bytes
      if let held = self.held.currentValue, !held.bytes.isEmpty {
        bytes = held.bytes + bytes
        held.bytes.removeAll(keepingCapacity: true)
      }
      bytes.append(UInt8(ascii: "\n"))
      self.writeNow(bytes)
      return
    }
    let held = self.heldLines()
    held.bytes.append(contentsOf: bytes)
    held.bytes.append(UInt8(ascii: "\n"))
    if held.bytes.count >= Self.heldBytesLimit {
      self.flush()
    } else if !held.writeQueued {
      held.writeQueued = true
      loop.scheduleTask(in: Self.holdingTime) {
        held.writeQueued = false
        self.flush()
      }
    }
  }

  /// Writes what every event loop of NIO's singleton group holds, then what this thread holds.
  public func flushAll() async {
    for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
      try? await loop.submit { self.flush() }.get()
    }
    self.flush()
  }

  /// Writes what the calling thread holds.
  public func flush() {
    guard let held = self.held.currentValue, !held.bytes.isEmpty else { return }
    let bytes = held.bytes
    held.bytes.removeAll(keepingCapacity: true)
    self.writeNow(bytes)
  }

  private func heldLines() -> HeldLines {
    if let held = self.held.currentValue { return held }
    let held = HeldLines()
    self.held.currentValue = held
    return held
  }

  private func writeNow(_ bytes: [UInt8]) {
    self.lock.withLock { _ in
      bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = systemWrite(self.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return  // Nowhere left to report a failing log stream.
          }
          offset += written
        }
      }
    }
  }
}

private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Glibc)
  Glibc.write(fd, buffer, count)
  #elseif canImport(Musl)
  Musl.write(fd, buffer, count)
  #else
  Darwin.write(fd, buffer, count)
  #endif
}
