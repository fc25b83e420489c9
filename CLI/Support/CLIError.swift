/// A failure the command-line client reports to its user in a sentence (exit status 1).
struct CLIError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
