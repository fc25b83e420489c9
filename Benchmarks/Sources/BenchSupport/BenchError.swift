/// Why a benchmark could not run (its setup did not find what it needs), for a person.
public struct BenchError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { self.message }

  public init(message: String) {
    self.message = message
  }
}
