/// Why a CSV file, or a feed made of them (GTFS), was refused: the file, line and column at fault
/// (1-based; 0 when the fault is the file as a whole), and what is wrong, for a person fixing it.
public struct CSVError: Error, Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var column: Int
  public var reason: String

  public init(file: String, line: Int = 0, column: Int = 0, reason: String) {
    self.file = file
    self.line = line
    self.column = column
    self.reason = reason
  }

  public var description: String {
    switch (self.line, self.column) {
    case (0, _): return "\(self.file): \(self.reason)"
    case (_, 0): return "\(self.file):\(self.line): \(self.reason)"
    default: return "\(self.file):\(self.line):\(self.column): \(self.reason)"
    }
  }
}
