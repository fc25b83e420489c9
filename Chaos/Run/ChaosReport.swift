/// What a chaos run did and found: the kills, and per load what was written, acknowledged and
/// found afterwards, with every broken promise spelled out.
public struct ChaosReport: Sendable, CustomStringConvertible {
  /// One load's figures and the promises it found broken.
  public struct Section: Sendable {
    public var name: String
    /// Figures in the order they read best: ("acknowledged", 120), ("found once", 120).
    public var counts: [(String, Int)]
    /// Each broken promise, for a person: "purchase pu_1 (key p1-7) is listed twice".
    public var violations: [String]

    init(name: String, counts: [(String, Int)] = [], violations: [String] = []) {
      self.name = name
      self.counts = counts
      self.violations = violations
    }
  }

  public var duration: Duration
  /// The gateway's address (`127.0.0.1:PORT`): the only one its clients know, and the only one
  /// their errors may name.
  public var gatewayAddress: String
  /// Kills per process.
  public var kills: [String: Int]
  /// Failed attempts the load retried, by status code and message ("unavailable: the
  /// ticketing service is unavailable; try again shortly").
  public var retriedFailures: [String: Int]
  public var sections: [Section]

  public var totalKills: Int { kills.values.reduce(0, +) }
  public var violations: [String] { sections.flatMap { section in section.violations.map { "\(section.name): \($0)" } } }

  public var description: String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    var lines = [
      "chaos run: \(Int(seconds.rounded())) s of load, \(totalKills) kills ("
        + kills.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")",
      "failed attempts retried: \(retriedFailures.values.reduce(0, +))",
    ]
    lines += retriedFailures.sorted { $0.value > $1.value }.map { "  \($0.value) × \($0.key)" }
    for section in sections {
      lines.append("\(section.name): " + section.counts.map { "\($0.0) \($0.1)" }.joined(separator: ", "))
      lines += section.violations.map { "  BROKEN: \($0)" }
    }
    let broken = violations.count
    lines.append(broken == 0 ? "every promise kept" : "\(broken) broken promise\(broken == 1 ? "" : "s")")
    return lines.joined(separator: "\n")
  }
}
