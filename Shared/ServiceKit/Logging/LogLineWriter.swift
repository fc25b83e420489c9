#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where finished log lines go. Each call receives one complete line, without its newline.
public protocol LogLineWriter: Sendable {
  func write(line: String)
}

/// Writes lines to a file descriptor (standard error by default), one whole line per `write(2)`
/// sequence, so lines from concurrent tasks never interleave.
public final class FileDescriptorLogWriter: LogLineWriter {
  /// Standard error: logs stay out of standard output, which tools may read.
  public static let standardError = FileDescriptorLogWriter(fileDescriptor: 2)
  public static let standardOutput = FileDescriptorLogWriter(fileDescriptor: 1)

  private let fileDescriptor: Int32
  private let lock = Mutex(())

  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  public func write(line: String) {
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
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
