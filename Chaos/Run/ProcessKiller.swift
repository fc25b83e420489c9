import BinarioDomain
import BinarioTestSupport

/// Every few seconds, `kill -9` of a process picked at random, then its restart on the same
/// port with its data, as a supervisor would: one process is down at a time. The victims are
/// drawn like cards from a shuffled deck, and the first deck is always dealt in full, so even a
/// short run on a slow machine (restarts that take seconds each) kills each process: its pauses
/// shrink to fit the time left, and a card still in it at the end is dealt after the load.
struct ProcessKiller: Sendable {
  let suite: RunningSuite
  let configuration: ChaosConfiguration
  let log: @Sendable (String) -> Void

  /// Kills until `stop`; returns the kills per process.
  func run(until stop: ContinuousClock.Instant) async throws -> [String: Int] {
    var random = SeededGenerator(state: configuration.seed)
    var kills: [String: Int] = [:]
    var deck: [String] = []
    var firstDeck = true
    while true {
      if deck.isEmpty {
        if !kills.isEmpty { firstDeck = false }
        deck = configuration.victims.shuffled(using: &random)
      }
      // The run's pace, drawn at random: not a wait for anything. In the first deck, no longer
      // than an equal share of the time left for the cards still in it.
      var pause = Duration.milliseconds(Int(Double.random(in: configuration.killInterval, using: &random) * 1000))
      if firstDeck {
        pause = max(.milliseconds(200), min(pause, (stop - ContinuousClock.now) / (deck.count + 1)))
      }
      guard firstDeck || ContinuousClock.now + pause < stop, let victim = deck.popLast() else { break }
      try await Task.sleep(for: pause)
      let killed = ContinuousClock.now
      try await suite.killAndRestart(victim)
      kills[victim, default: 0] += 1
      log("killed \(victim) (kill \(kills.values.reduce(0, +))); listening again after \(ContinuousClock.now - killed)")
    }
    return kills
  }
}
