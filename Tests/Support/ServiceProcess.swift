import Foundation
import Synchronization

/// A service executable of this package running as its own process, for tests that need a real
/// process to lose (`kill -9`) or restart, and for benchmarks of the processes as deployed.
///
/// It starts the product with `--log-format json` and learns where it listens from its
/// `listening` log event, so tests can pass `--port 0` and wait on the event, not on time.
public final class ServiceProcess: Sendable {
  /// Why a service process could not be used.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let executableName: String
  /// `host:port` from the process's `listening` event.
  public let address: String
  /// `host:port` of each of its other listeners (the gateway's `grpc` and `http` front doors),
  /// from their `listening` events' `listener` key, and of its `metrics` endpoint if it has one.
  public let listenerAddresses: [String: String]
  private let process: Process

  /// The port part of ``address``.
  public var port: Int { Self.port(of: self.address) }
  public var processIdentifier: Int32 { self.process.processIdentifier }

  /// The port of the listener named `listener`, 0 if it has none.
  public func port(of listener: String) -> Int {
    self.listenerAddresses[listener].map(Self.port(of:)) ?? 0
  }

  private static func port(of address: String) -> Int {
    Int(address.split(separator: ":").last ?? "") ?? 0
  }

  private init(executableName: String, address: String, listenerAddresses: [String: String], process: Process) {
    self.executableName = executableName
    self.address = address
    self.listenerAddresses = listenerAddresses
    self.process = process
  }

  /// The folder holding this package's built products: where the running executable (the test
  /// bundle, or a benchmark that depends on the products) was built.
  public static var productsFolder: URL {
    #if os(Linux)
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    #else
    let executable = URL(fileURLWithPath: CommandLine.arguments[0])
    #endif
    return executable.deletingLastPathComponent()
  }

  /// A loopback TCP port nothing listens on now, for a process whose address others must know
  /// before it starts (two services that call each other).
  ///
  /// Chosen below the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`): a port
  /// in that range may be handed, between choosing it and the process binding it, to any of the
  /// outgoing connections the suite makes (a port chosen by binding port 0 was, once: the process
  /// then failed with "Address already in use"). Below it, only an explicit bind takes a port.
  public static func unusedPort() throws -> Int {
    let ephemeralStart = Self.ephemeralPortRange().lowerBound
    let candidates = 10_000 ..< max(10_001, ephemeralStart)
    var generator = SystemRandomNumberGenerator()
    for _ in 0 ..< 200 {
      let port = Int.random(in: candidates, using: &generator)
      if Self.canBind(port) { return port }
    }
    throw POSIXError(.EADDRINUSE)
  }

  /// The ports the kernel gives outgoing connections (Linux's default when it cannot tell).
  static func ephemeralPortRange() -> ClosedRange<Int> {
    let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
    let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
    guard numbers.count == 2, numbers[0] <= numbers[1] else { return 32768 ... 60999 }
    return numbers[0] ... numbers[1]
  }

  /// Whether a listener could bind `port` on loopback now.
  static func canBind(_ port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
    }
  }

  /// Starts `executableName` from ``productsFolder`` with `arguments` (plus `--log-format json`)
  /// and returns once it logs that it is listening, that each of `listeners` is (its metrics
  /// endpoint too, when `arguments` give it a port), and each
  /// message of `events` (work it does before it is of use: geo-offers' first copy of the
  /// stations). Fails if it exits first.
  ///
  /// - Parameter networkNamespace: Runs it in this network namespace (`ip netns exec`, which
  ///   becomes the program itself).
  public static func start(
    _ executableName: String,
    arguments: [String],
    environment: [String: String] = [:],
    listeners: Set<String> = [],
    events: Set<String> = [],
    networkNamespace: String? = nil
  ) async throws -> ServiceProcess {
    let process = Process()
    let executable = Self.productsFolder.appendingPathComponent(executableName)
    if let networkNamespace {
      process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
      process.arguments = ["netns", "exec", networkNamespace, executable.path] + arguments + ["--log-format", "json"]
    } else {
      process.executableURL = executable
      process.arguments = arguments + ["--log-format", "json"]
    }
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let standardError = Pipe()
    process.standardError = standardError
    process.standardOutput = FileHandle.nullDevice

    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    let splitter = LineSplitter(continuation: continuation)
    standardError.fileHandleForReading.readabilityHandler = { handle in
      let data = handle.availableData
      if data.isEmpty {
        handle.readabilityHandler = nil
        continuation.finish()
      } else {
        splitter.append(data)
      }
    }
    try process.run()

    var seen: [String] = []
    var main: String?
    var others: [String: String] = [:]
    var awaited = events
    // A metrics endpoint asked for is awaited too: it may say it listens after the main listener.
    var listeners = listeners
    if let flag = arguments.firstIndex(of: "--metrics-port"), flag + 1 < arguments.count, arguments[flag + 1] != "off" {
      listeners.insert("metrics")
    }
    for await line in lines {
      seen.append(line)
      if let message = Self.message(inLogLine: line) { awaited.remove(message) }
      if let (listener, address) = Self.listeningAddress(inLogLine: line) {
        if let listener { others[listener] = address } else { main = address }
      }
      if let main, listeners.isSubset(of: others.keys), awaited.isEmpty {
        // Keep draining the pipe so the process never blocks on a full stderr; with
        // BINARIO_TEST_LOGS=FOLDER, into FOLDER/<executable>.log (to debug a test by hand).
        let log = Self.logFile(executableName)
        log?.write(Data(seen.map { $0 + "\n" }.joined().utf8))
        Task {
          for await line in lines { log?.write(Data((line + "\n").utf8)) }
          try? log?.close()
        }
        return ServiceProcess(executableName: executableName, address: main, listenerAddresses: others, process: process)
      }
    }
    process.waitUntilExit()
    throw Failure(
      description: "\(executableName) exited (status \(process.terminationStatus)) before listening:\n"
        + seen.suffix(20).joined(separator: "\n")
    )
  }

  /// Where a process's log goes when BINARIO_TEST_LOGS names a folder; appended to.
  private static func logFile(_ executableName: String) -> FileHandle? {
    guard let folder = ProcessInfo.processInfo.environment["BINARIO_TEST_LOGS"] else { return nil }
    let path = URL(fileURLWithPath: folder).appendingPathComponent("\(executableName).log").path
    if !FileManager.default.fileExists(atPath: path) { FileManager.default.createFile(atPath: path, contents: nil) }
    let handle = FileHandle(forWritingAtPath: path)
    _ = try? handle?.seekToEnd()
    return handle
  }

  /// A JSON log line's message.
  private static func message(inLogLine line: String) -> String? {
    guard let data = line.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      return nil
    }
    return object["message"] as? String
  }

  /// The listener's name (`nil` for the main listener; `metrics` for the `/metrics` endpoint)
  /// and address of a `listening` event.
  private static func listeningAddress(inLogLine line: String) -> (String?, String)? {
    guard let data = line.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let message = object["message"] as? String, message == "listening" || message == "metrics endpoint listening"
    else { return nil }
    let metadata = object["metadata"] as? [String: Any] ?? object
    guard let address = metadata["address"] as? String else { return nil }
    return (message == "listening" ? metadata["listener"] as? String : "metrics", address)
  }

  /// `kill -9`: the process is gone at once, its sockets closed by the kernel.
  public func kill() {
    Foundation.kill(self.process.processIdentifier, SIGKILL)
    self.process.waitUntilExit()
  }

  /// SIGTERM, then waits for the process to exit; returns its exit status.
  @discardableResult
  public func terminate() -> Int32 {
    self.process.terminate()
    self.process.waitUntilExit()
    return self.process.terminationStatus
  }

  deinit {
    if self.process.isRunning { Foundation.kill(self.process.processIdentifier, SIGKILL) }
  }
}

/// Turns chunks of bytes into lines.
private final class LineSplitter: Sendable {
  private let buffer = Mutex(Data())
  private let continuation: AsyncStream<String>.Continuation

  init(continuation: AsyncStream<String>.Continuation) {
    self.continuation = continuation
  }

  func append(_ data: Data) {
    let lines = self.buffer.withLock { buffer -> [String] in
      buffer.append(data)
      var lines: [String] = []
      while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: buffer[buffer.startIndex ..< newline], as: UTF8.self))
        buffer.removeSubrange(buffer.startIndex ... newline)
      }
      return lines
    }
    for line in lines { self.continuation.yield(line) }
  }
}
