import ArgumentParser
import BinarioChaos
import BinarioTestSupport
import Foundation

/// `binario-chaos`: a chaos run from the command line (scripts/chaos.sh builds and runs it).
@main
struct ChaosCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "binario-chaos",
    abstract:
      "Runs the whole suite under a mixed load while killing a random process every few seconds, then checks that every acknowledged write is there exactly once.",
    discussion: "Exits 1 when a promise was broken. The suite's executables are taken from this program's own folder."
  )

  @Option(help: "Seconds of load while processes are killed.")
  var seconds: Int = 60

  @Option(help: "Seconds between kills, drawn at random from this range: MIN-MAX or one figure.")
  var killEvery: String = "2-4"

  @Option(help: "Passengers making the load.")
  var passengers: Int = 4

  @Option(help: "Taxi drivers.")
  var drivers: Int = 3

  @Option(help: "The share of calls made with a deadline of a few milliseconds, whose retry must not do the write twice (0 to 1).")
  var impatience: Double = 0.1

  @Option(help: "Seeds the choice of victims and intervals.")
  var seed: UInt64 = 1

  @Option(help: "Processes that may be killed, comma-separated (default: all seven).")
  var victims: String?

  func validate() throws {
    guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
    guard (0 ... 1).contains(impatience) else { throw ValidationError("--impatience must be from 0 to 1") }
    guard passengers > 0, drivers > 0 else { throw ValidationError("--passengers and --drivers must be positive") }
    guard killInterval != nil else { throw ValidationError("--kill-every must be seconds, or MIN-MAX seconds (2-4)") }
    if let victims {
      for name in victims.split(separator: ",") where !RunningSuite.processNames.contains(String(name)) {
        throw ValidationError("--victims: no process \(name); the suite's are \(RunningSuite.processNames.joined(separator: ", "))")
      }
    }
  }

  private var killInterval: ClosedRange<Double>? {
    let parts = killEvery.split(separator: "-").compactMap { Double($0) }
    guard parts.count == killEvery.split(separator: "-").count, let low = parts.first, let high = parts.last, low > 0, low <= high,
      parts.count <= 2
    else { return nil }
    return low ... high
  }

  func run() async throws {
    var configuration = ChaosConfiguration(
      duration: .seconds(seconds),
      killInterval: killInterval!,
      passengers: passengers,
      drivers: drivers,
      impatience: impatience,
      seed: seed
    )
    if let victims { configuration.victims = victims.split(separator: ",").map(String.init) }
    let started = Date()
    let report = try await ChaosRun(configuration).run { line in
      Self.write("[\(String(format: "%6.1f", Date().timeIntervalSince(started)))s] \(line)")
    }
    Self.write("\(report)")
    if !report.violations.isEmpty { throw ExitCode(1) }
  }

  /// A line to standard output at once (`print` buffers when the output is a file).
  private static func write(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }
}
