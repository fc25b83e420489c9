import ArgumentParser

/// Which executor runs Swift concurrency in the client and server processes.
public enum ConcurrencyExecutor: Sendable {
  /// NIO's event loops, installed as the global executor: tasks and channel I/O share threads,
  /// so resuming a task after an event-loop callback costs no thread switch.
  case nioEventLoops
  /// Swift's default cooperative pool, separate from NIO's event-loop threads.
  case swiftDefault

  /// The same choice, as arguments for a server child.
  public var arguments: [String] {
    switch self {
    case .nioEventLoops: return ["--nio-executor"]
    case .swiftDefault: return ["--no-nio-executor"]
    }
  }

  public var description: String {
    switch self {
    case .nioEventLoops: return "NIO event loops installed as the global executor"
    case .swiftDefault: return "Swift's default global executor"
    }
  }
}

/// The `--[no-]nio-executor` flag, shared by the benchmarks' commands.
public struct ExecutorOptions: ParsableArguments, Sendable {
  public init() {}

  @Flag(
    name: .customLong("nio-executor"),
    inversion: .prefixedNo,
    help: "Install NIO's event loops as Swift concurrency's global executor, as the services do (in client and server processes)."
  )
  public var nioExecutor = true

  public var executor: ConcurrencyExecutor { self.nioExecutor ? .nioEventLoops : .swiftDefault }
}
