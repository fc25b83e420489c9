/// One kind of traffic in a chaos run: people writing through the gateway while processes die,
/// and afterwards, with every process up again, the check that what the suite acknowledged is
/// there exactly once.
protocol ChaosLoad: Sendable {
  var name: String { get }
  /// Writes until `stop`; a write still unanswered then is retried until acknowledged (or the
  /// run's settle limit).
  func run(until stop: ContinuousClock.Instant) async throws
  /// What was written, acknowledged and found, and every promise broken.
  func check() async throws -> ChaosReport.Section
}

extension ChaosLoad {
  /// The pause between one person's writes: a steady load that leaves the two cores to the
  /// processes restarting.
  static var pace: Duration { .milliseconds(100) }
}
