/// How log lines are written.
public enum LogFormat: String, Codable, Sendable, Hashable, CaseIterable {
  /// One line per event for a person reading a terminal (``HumanLogHandler``).
  case human
  /// One JSON object per line for log collectors (``JSONLogHandler``).
  case json
}
