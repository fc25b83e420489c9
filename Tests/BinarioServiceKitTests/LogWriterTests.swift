import BinarioServiceKit
import NIOCore
import NIOPosix
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `FileDescriptorLogWriter` writing into a pipe this test reads without blocking.
@Suite("The log line writer")
struct LogWriterTests {
  final class Pipe: Sendable {
    let read: Int32
    let write: Int32

    init() throws {
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      (self.read, self.write) = (ends[0], ends[1])
      _ = fcntl(self.read, F_SETFL, fcntl(self.read, F_GETFL) | O_NONBLOCK)
    }

    /// What the pipe holds now ("" when empty).
    func drain() -> String {
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = buffer.withUnsafeMutableBytes { Glibc.read(self.read, $0.baseAddress, 4096) }
        if count <= 0 { break }
        bytes += buffer[..<count]
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
      close(self.read)
      close(self.write)
    }
  }

  @Test("lines logged on an event loop leave together, at the latest after the holding time")
  func batchedOnTheLoop() async throws {
    let pipe = try Pipe()
    let writer = FileDescriptorLogWriter(fileDescriptor: pipe.write)
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    let seenInside = try await loop.submit {
      writer.write(line: "one")
      writer.write(line: "two")
      return pipe.drain()
    }.get()
    #expect(seenInside == "")
    // The write is scheduled on the loop after the holding time: a task scheduled later runs after it.
    try await loop.scheduleTask(in: FileDescriptorLogWriter.holdingTime + .milliseconds(1)) {}.futureResult.get()
    #expect(pipe.drain() == "one\ntwo\n")
  }

  @Test("flushing every loop writes what each holds")
  func flushAll() async throws {
    let pipe = try Pipe()
    let writer = FileDescriptorLogWriter(fileDescriptor: pipe.write)
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    try await loop.submit { writer.write(line: "held") }.get()
    await writer.flushAll()
    #expect(pipe.drain() == "held\n")
  }

  @Test("a warning is written at once, after the lines its thread held")
  func urgentLinesGoAtOnce() async throws {
    let pipe = try Pipe()
    let writer = FileDescriptorLogWriter(fileDescriptor: pipe.write)
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    let seenInside = try await loop.submit {
      writer.write(line: "info")
      writer.write(bytes: Array("warning".utf8), urgent: true)
      return pipe.drain()
    }.get()
    #expect(seenInside == "info\nwarning\n")
    try await loop.scheduleTask(in: FileDescriptorLogWriter.holdingTime + .milliseconds(1)) {}.futureResult.get()
    #expect(pipe.drain() == "")
  }

  @Test("off the event loops, and on flush, lines are written at once")
  func offTheLoops() throws {
    let pipe = try Pipe()
    let writer = FileDescriptorLogWriter(fileDescriptor: pipe.write)
    writer.write(line: "from a plain thread")
    #expect(pipe.drain() == "from a plain thread\n")
    writer.flush()
    #expect(pipe.drain() == "")
  }
}
