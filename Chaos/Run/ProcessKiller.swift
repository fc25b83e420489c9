import BinarioDomain
import BinarioTestSupport

/// Every few seconds, `kill -9` of a process picked at random, then its restart on the same
/// port with its data, as a supervisor would: one process is down at a time. The victims are
/// drawn like cards from a shuffled deck, so even a short run kills each process.
struct ProcessKiller: Sendable {
  let suite: RunningSuite
  let configuration: ChaosConfiguration
  let log: @Sendable (String) -> Void

  /// Kills until `stop`; returns the kills per process.
  func run(until stop: ContinuousClock.Instant) async throws -> [String: Int] {
    var random = SeededGenerator(state: configuration.seed)
    var kills: [String: Int] = [:]
    var deck: [String] = []
    while true {
      if deck.isEmpty { deck = configuration.victims.shuffled(using: &random) }
      // The run's pace, drawn at random: not a wait for anything.
      let pause = Duration.milliseconds(Int(Double.random(in: configuration.killInterval, using: &random) * 1000))
      guard ContinuousClock.now + pause < stop, let victim = deck.popLast() else { break }
      try await Task.sleep(for: pause)
      let killed = ContinuousClock.now
      try await suite.killAndRestart(victim)
      kills[victim, default: 0] += 1
      log("killed \(victim) (kill \(kills.values.reduce(0, +))); listening again after \(ContinuousClock.now - killed)")
    }
    return kills
  }
}
