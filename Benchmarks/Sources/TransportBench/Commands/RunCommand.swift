import ArgumentParser
import BenchSupport
import BinarioServiceKit
import Foundation

/// The benchmark itself (the default command): starts one server child per transport, measures
/// every case from this process as the client, and prints the table.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Measures echo calls over each transport (the default command)."
  )

  @Option(help: "Seconds measured per run of a case.")
  var duration: Double = 3

  @Option(help: "Seconds of calls before each measured run (same connection), not counted.")
  var warmup: Double = 0.5

  @Option(help: "Runs of each case; transports alternate, and their order flips every run.")
  var repeats: Int = 3

  @Option(help: "Which run stands for a case in the table (by calls/s): median (the lower middle one for an even count) or best.")
  var pick: Pick = .median

  @Option(name: .customLong("in-flight"), parsing: .upToNextOption, help: "Calls in flight on the one connection, one case each.")
  var inFlight: [Int] = [1, 64]

  @Option(parsing: .upToNextOption, help: "Transports to measure (\(TransportKind.allCases.map(\.rawValue).joined(separator: ", "))).")
  var kinds: [TransportKind] = TransportKind.allCases

  @Option(name: .customLong("payload-size"), help: "Bytes of payload in each request (and echoed back).")
  var payloadSize: Int = 100

  @OptionGroup var executor: ExecutorOptions

  func validate() throws {
    guard self.duration > 0, self.warmup >= 0 else { throw ValidationError("--duration must be > 0 and --warmup >= 0") }
    guard self.repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
    guard !self.inFlight.isEmpty, self.inFlight.allSatisfy({ $0 >= 1 }) else {
      throw ValidationError("--in-flight needs one or more counts >= 1")
    }
    guard !self.kinds.isEmpty else { throw ValidationError("--kinds needs at least one transport") }
    guard self.payloadSize >= 0 else { throw ValidationError("--payload-size must be >= 0") }
  }

  func run() throws {
    // A server child that died must not kill the benchmark when it writes to its stdin.
    signal(SIGPIPE, SIG_IGN)
    let settings = BenchmarkSettings(
      duration: .milliseconds(Int64(self.duration * 1000)),
      warmup: .milliseconds(Int64(self.warmup * 1000)),
      repeats: self.repeats,
      pick: self.pick,
      inFlight: self.inFlight,
      kinds: self.kinds,
      payloadSize: self.payloadSize,
      executor: self.executor.executor
    )
    try EventLoopConcurrency.run(installing: self.executor.nioExecutor) {
      try await BenchmarkRun(settings: settings).execute()
    }
  }
}

/// Which run stands for a case.
enum Pick: String, ExpressibleByArgument, CaseIterable, Sendable {
  case median
  case best

  /// The chosen run, by calls/s; all its figures come from that one run.
  func choose(from runs: [Measurement]) -> Measurement {
    let sorted = runs.sorted { $0.callsPerSecond < $1.callsPerSecond }
    switch self {
    case .median: return sorted[(sorted.count - 1) / 2]
    case .best: return sorted[sorted.count - 1]
    }
  }
}
